#!/usr/bin/python3
"""A relying party built on Debian's python3-authlib (+ python3-requests) and the standard library only.

Confidential client (client_secret_basic), authorization code + PKCE S256, state and nonce, the ID token
verified against the provider's JWKS (issuer, audience, nonce, at_hash), UserInfo, refresh, and
RP-initiated sign-out. Run: /usr/bin/python3 rp_authlib.py (configuration from the environment:
RP_ISSUER, RP_HOST, RP_PORT, RP_CLIENT_ID, RP_CLIENT_SECRET, RP_SCOPE). Prints "listening <url>" when ready.
The same code, trimmed, is the authlib set-up of docs/INTEGRATING.md.
"""
import hashlib
import html
import json
import os
import secrets
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlencode, urlparse

# the suite runs on http://127.0.0.x; never set this in production (https is required there)
os.environ.setdefault("AUTHLIB_INSECURE_TRANSPORT", "1")

import requests  # noqa: E402
from authlib.integrations.requests_client import OAuth2Session  # noqa: E402
from authlib.jose import JsonWebKey, jwt  # noqa: E402
from authlib.oidc.core import CodeIDToken  # noqa: E402

ISSUER = os.environ["RP_ISSUER"]
HOST = os.environ.get("RP_HOST", "127.0.0.1")
PORT = int(os.environ.get("RP_PORT", "0"))
CLIENT_ID = os.environ["RP_CLIENT_ID"]
CLIENT_SECRET = os.environ["RP_CLIENT_SECRET"]
SCOPE = os.environ.get("RP_SCOPE", "openid profile email roles offline_access")

META = requests.get(f"{ISSUER}/.well-known/openid-configuration", timeout=10).json()
SESSIONS = {}
TITLE = "authlib RP"


def oauth(base, token=None):
    return OAuth2Session(
        CLIENT_ID,
        CLIENT_SECRET,
        scope=SCOPE,
        redirect_uri=f"{base}/callback",
        token_endpoint_auth_method="client_secret_basic",
        code_challenge_method="S256",
        token=token,
    )


def verify_id_token(id_token, nonce, access_token):
    keys = JsonWebKey.import_key_set(requests.get(META["jwks_uri"], timeout=10).json())
    claims = jwt.decode(
        id_token,
        keys,
        claims_cls=CodeIDToken,
        claims_options={"iss": {"essential": True, "value": META["issuer"]}},
        claims_params={"nonce": nonce, "client_id": CLIENT_ID, "access_token": access_token},
    )
    claims.validate(leeway=5)
    return dict(claims)


def tag(token):
    return hashlib.sha256(token.encode()).hexdigest()[:12] if token else ""


def page(state, s=None, error=None):
    e = html.escape
    parts = [f"<h1>{TITLE}</h1>", f'<p id="state">{state}</p>']
    if error:
        parts.append(f'<p id="error">{e(error)}</p>')
    if state == "signed-in":
        parts += [
            f'<pre id="id-claims">{e(json.dumps(s["id_claims"], indent=2))}</pre>',
            f'<pre id="userinfo">{e(json.dumps(s["userinfo"], indent=2))}</pre>',
            f'<p>Refreshes: <span id="refreshes">{s["refreshes"]}</span>, access token <span id="at-hash">{tag(s["token"]["access_token"])}</span></p>',
            '<p><a href="/refresh">Refresh tokens</a> <a href="/logout">Sign out</a></p>',
        ]
    else:
        parts.append('<p><a href="/login">Sign in</a></p>')
    return f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{TITLE}</title></head><body><main>{"".join(parts)}</main></body></html>'


class Handler(BaseHTTPRequestHandler):
    def log_message(self, fmt, *args):  # quiet
        pass

    def send(self, status, body, headers=None):
        data = body.encode()
        self.send_response(status)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)

    def redirect(self, to, headers=None):
        self.send_response(302)
        self.send_header("Location", to)
        self.send_header("Content-Length", "0")
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()

    def do_GET(self):
        base = f"http://{HOST}:{self.server.server_port}"
        url = urlparse(self.path)
        query = {k: v[0] for k, v in parse_qs(url.query).items()}
        cookie = self.headers.get("Cookie", "")
        sid = next((c.split("=", 1)[1] for c in cookie.split("; ") if c.startswith("rp_sid=")), None)
        s = SESSIONS.get(sid) if sid else None
        try:
            if url.path == "/login":
                sid = secrets.token_urlsafe(16)
                verifier = secrets.token_urlsafe(64)
                nonce = secrets.token_urlsafe(16)
                # OIDC Core: offline_access (a refresh token) is only granted together with prompt=consent
                extra = {"prompt": "consent"} if "offline_access" in SCOPE.split() else {}
                uri, state = oauth(base).create_authorization_url(
                    META["authorization_endpoint"], code_verifier=verifier, nonce=nonce, **extra
                )
                SESSIONS[sid] = {"pending": {"verifier": verifier, "state": state, "nonce": nonce}, "refreshes": 0}
                return self.redirect(uri, {"Set-Cookie": f"rp_sid={sid}; Path=/; HttpOnly; SameSite=Lax"})
            if url.path == "/callback":
                pending = s and s.pop("pending", None)
                if not pending:
                    return self.send(400, page("error", error="no pending sign-in"))
                if "error" in query:
                    s["error"] = query["error"]
                    return self.redirect("/")
                if query.get("state") != pending["state"]:
                    s["error"] = "state mismatch"
                    return self.redirect("/")
                token = oauth(base).fetch_token(
                    META["token_endpoint"], authorization_response=f"{base}{self.path}", code_verifier=pending["verifier"]
                )
                s["id_claims"] = verify_id_token(token["id_token"], pending["nonce"], token["access_token"])
                s["token"] = token
                s["userinfo"] = oauth(base, token).get(META["userinfo_endpoint"]).json()
                return self.redirect("/")
            if url.path == "/refresh":
                if not s or "token" not in s or not s["token"].get("refresh_token"):
                    return self.send(400, page("error", error="no refresh token"))
                old = s["token"]
                try:
                    token = oauth(base, old).refresh_token(META["token_endpoint"], refresh_token=old["refresh_token"])
                except Exception as err:  # authlib raises OAuthError with .error
                    s["error"] = f"refresh failed: {getattr(err, 'error', err)}"
                    return self.redirect("/")
                token.setdefault("id_token", old.get("id_token"))
                s["token"] = token
                s["userinfo"] = oauth(base, token).get(META["userinfo_endpoint"]).json()
                s["refreshes"] += 1
                s.pop("error", None)
                return self.redirect("/")
            if url.path == "/logout":
                id_token = s and s.get("token", {}).get("id_token")
                SESSIONS.pop(sid, None)
                params = {"post_logout_redirect_uri": f"{base}/", "client_id": CLIENT_ID}
                if id_token:
                    params["id_token_hint"] = id_token
                return self.redirect(f'{META["end_session_endpoint"]}?{urlencode(params)}', {"Set-Cookie": "rp_sid=; Path=/; Max-Age=0"})
            if url.path == "/":
                if s and s.get("error"):
                    return self.send(200, page("error", error=s["error"]))
                if s and "token" in s:
                    return self.send(200, page("signed-in", s))
                return self.send(200, page("signed-out"))
            return self.send(404, "not found")
        except Exception as err:  # shown, not hidden: the spec prints the page on failure
            return self.send(500, page("error", error=f"{type(err).__name__}: {err}"))


def main():
    server = ThreadingHTTPServer((HOST, PORT), Handler)
    print(f"listening http://{HOST}:{server.server_port}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    sys.exit(main())
