// A relying party built on Debian's go-oidc 2.1 (golang-github-coreos-go-oidc-dev) and x/oauth2 0.3
// (golang-golang-x-oauth2-dev) with the standard library only, as an integrator would write it.
//
// Confidential client (HTTP Basic), authorization code with PKCE S256 by hand (x/oauth2 0.3 has no PKCE helper),
// state and nonce, the ID token verified by go-oidc (issuer, audience, expiry, signature from the JWKS), UserInfo,
// refresh, RP-initiated sign-out (end_session_endpoint read from the discovery document), and OpenID Connect
// Back-Channel Logout: POST /backchannel-logout verifies the logout_token with go-oidc's verifier plus the checks the
// spec adds (typ logout+jwt, the back-channel event, sid or sub, no nonce) and ends the sessions it names.
//
// Run: go run . (configuration from the environment: RP_ISSUER, RP_HOST, RP_PORT, RP_CLIENT_ID, RP_CLIENT_SECRET,
// RP_SCOPE). Prints "listening <url>" when ready. The same code, trimmed, is the Go set-up of docs/INTEGRATING.md.
package main

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"html"
	"log"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"

	oidc "github.com/coreos/go-oidc"
	"golang.org/x/oauth2"
)

type session struct {
	state, nonce, verifier string
	token                  *oauth2.Token
	idToken                string
	idClaims, userinfo     map[string]interface{}
	refreshes              int
	sid, sub               string
	err                    string
}

var (
	mu       sync.Mutex
	sessions = map[string]*session{}
	// what the provider told us by back-channel: the sid and sub values of ended sessions, and how many arrived
	backchannel struct {
		received, rejected int
		lastError          string
	}
)

func random() string {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

func tokenTag(t string) string {
	if t == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(t))
	return hex.EncodeToString(sum[:])[:12]
}

func page(w http.ResponseWriter, s *session, state string) {
	w.Header().Set("content-type", "text/html; charset=utf-8")
	parts := []string{"<h1>go-oidc RP</h1>", fmt.Sprintf(`<p id="state">%s</p>`, state)}
	if s != nil && s.err != "" {
		parts = append(parts, fmt.Sprintf(`<p id="error">%s</p>`, html.EscapeString(s.err)))
	}
	if state == "signed-in" {
		idc, _ := json.MarshalIndent(s.idClaims, "", "  ")
		ui, _ := json.MarshalIndent(s.userinfo, "", "  ")
		parts = append(parts,
			fmt.Sprintf(`<pre id="id-claims">%s</pre>`, html.EscapeString(string(idc))),
			fmt.Sprintf(`<pre id="userinfo">%s</pre>`, html.EscapeString(string(ui))),
			fmt.Sprintf(`<p>Refreshes: <span id="refreshes">%d</span>, access token <span id="at-hash">%s</span></p>`, s.refreshes, tokenTag(s.token.AccessToken)),
			`<p><a href="/refresh">Refresh tokens</a> <a href="/logout">Sign out</a></p>`)
	} else {
		parts = append(parts, `<p><a href="/login">Sign in</a></p>`)
	}
	mu.Lock()
	parts = append(parts, fmt.Sprintf(`<p>Back-channel logouts: <span id="backchannel">%d</span>, rejected <span id="backchannel-rejected">%d</span></p>`, backchannel.received, backchannel.rejected))
	mu.Unlock()
	fmt.Fprintf(w, `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>go-oidc RP</title></head><body><main>%s</main></body></html>`, strings.Join(parts, "\n"))
}

func main() {
	issuer := os.Getenv("RP_ISSUER")
	host := os.Getenv("RP_HOST")
	port := os.Getenv("RP_PORT")
	scope := os.Getenv("RP_SCOPE")
	if scope == "" {
		scope = "openid profile email roles offline_access"
	}
	base := fmt.Sprintf("http://%s:%s", host, port)
	ctx := context.Background()
	provider, err := oidc.NewProvider(ctx, issuer)
	if err != nil {
		log.Fatalf("discovery: %v", err)
	}
	var meta struct {
		EndSession string `json:"end_session_endpoint"`
	}
	if err := provider.Claims(&meta); err != nil {
		log.Fatalf("discovery claims: %v", err)
	}
	clientID := os.Getenv("RP_CLIENT_ID")
	conf := &oauth2.Config{
		ClientID:     clientID,
		ClientSecret: os.Getenv("RP_CLIENT_SECRET"),
		Endpoint:     oauth2.Endpoint{AuthURL: provider.Endpoint().AuthURL, TokenURL: provider.Endpoint().TokenURL, AuthStyle: oauth2.AuthStyleInHeader},
		RedirectURL:  base + "/callback",
		Scopes:       strings.Fields(scope),
	}
	verifier := provider.Verifier(&oidc.Config{ClientID: clientID})

	current := func(r *http.Request) (string, *session) {
		c, err := r.Cookie("gorp")
		if err != nil {
			return "", nil
		}
		mu.Lock()
		defer mu.Unlock()
		return c.Value, sessions[c.Value]
	}

	http.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		_, s := current(r)
		if s != nil && s.token != nil {
			page(w, s, "signed-in")
			return
		}
		page(w, s, "signed-out")
	})

	http.HandleFunc("/login", func(w http.ResponseWriter, r *http.Request) {
		id := random()
		s := &session{state: random(), nonce: random(), verifier: random()}
		mu.Lock()
		sessions[id] = s
		mu.Unlock()
		http.SetCookie(w, &http.Cookie{Name: "gorp", Value: id, Path: "/", HttpOnly: true, SameSite: http.SameSiteLaxMode})
		challenge := sha256.Sum256([]byte(s.verifier))
		to := conf.AuthCodeURL(s.state, oidc.Nonce(s.nonce),
			oauth2.SetAuthURLParam("code_challenge", base64.RawURLEncoding.EncodeToString(challenge[:])),
			oauth2.SetAuthURLParam("code_challenge_method", "S256"),
			oauth2.SetAuthURLParam("prompt", "consent"))
		http.Redirect(w, r, to, http.StatusFound)
	})

	http.HandleFunc("/callback", func(w http.ResponseWriter, r *http.Request) {
		_, s := current(r)
		q := r.URL.Query()
		if s == nil || q.Get("state") != s.state {
			s = &session{err: "state mismatch"}
			page(w, s, "error")
			return
		}
		if e := q.Get("error"); e != "" {
			s.err = e
			page(w, s, "error")
			return
		}
		tok, err := conf.Exchange(r.Context(), q.Get("code"), oauth2.SetAuthURLParam("code_verifier", s.verifier))
		if err == nil {
			raw, _ := tok.Extra("id_token").(string)
			var idt *oidc.IDToken
			if idt, err = verifier.Verify(r.Context(), raw); err == nil {
				if idt.Nonce != s.nonce {
					err = fmt.Errorf("nonce mismatch")
				} else if idt.AccessTokenHash != "" && idt.VerifyAccessToken(tok.AccessToken) != nil {
					// at_hash is optional in the code flow (the provider leaves it out): check it only when present
					err = fmt.Errorf("at_hash mismatch")
				} else {
					s.idClaims = map[string]interface{}{}
					_ = idt.Claims(&s.idClaims)
					s.idToken, s.token, s.sub = raw, tok, idt.Subject
					s.sid, _ = s.idClaims["sid"].(string)
					err = loadUserinfo(r.Context(), provider, s)
				}
			}
		}
		if err != nil {
			s.err = err.Error()
			page(w, s, "error")
			return
		}
		http.Redirect(w, r, "/", http.StatusFound)
	})

	http.HandleFunc("/refresh", func(w http.ResponseWriter, r *http.Request) {
		_, s := current(r)
		if s == nil || s.token == nil {
			http.Redirect(w, r, "/", http.StatusFound)
			return
		}
		// an expired copy makes the token source refresh now
		old := *s.token
		old.Expiry = time.Now().Add(-time.Minute)
		tok, err := conf.TokenSource(r.Context(), &old).Token()
		if err == nil {
			s.token = tok
			s.refreshes++
			err = loadUserinfo(r.Context(), provider, s)
		}
		if err != nil {
			s.err = err.Error()
			page(w, s, "error")
			return
		}
		http.Redirect(w, r, "/", http.StatusFound)
	})

	http.HandleFunc("/logout", func(w http.ResponseWriter, r *http.Request) {
		id, s := current(r)
		mu.Lock()
		delete(sessions, id)
		mu.Unlock()
		q := url.Values{"post_logout_redirect_uri": {base + "/"}}
		if s != nil && s.idToken != "" {
			q.Set("id_token_hint", s.idToken)
		}
		http.Redirect(w, r, meta.EndSession+"?"+q.Encode(), http.StatusFound)
	})

	// OpenID Connect Back-Channel Logout 1.0, section 2.6: validate, then end the sessions named by sid (or sub)
	http.HandleFunc("/backchannel-logout", func(w http.ResponseWriter, r *http.Request) {
		reject := func(reason string) {
			mu.Lock()
			backchannel.rejected++
			backchannel.lastError = reason
			mu.Unlock()
			log.Printf("backchannel logout rejected: %s", reason)
			w.Header().Set("cache-control", "no-store")
			http.Error(w, `{"error":"invalid_request"}`, http.StatusBadRequest)
		}
		if r.Method != http.MethodPost {
			reject("method")
			return
		}
		raw := r.PostFormValue("logout_token")
		if err := checkLogoutHeader(raw); err != nil {
			reject(err.Error())
			return
		}
		// signature, iss, aud, exp (go-oidc checks them as for an ID token)
		lt, err := verifier.Verify(r.Context(), raw)
		if err != nil {
			reject(err.Error())
			return
		}
		var claims struct {
			Events map[string]json.RawMessage `json:"events"`
			Sid    string                     `json:"sid"`
			Nonce  *string                    `json:"nonce"`
			Jti    string                     `json:"jti"`
		}
		if err := lt.Claims(&claims); err != nil {
			reject(err.Error())
			return
		}
		if _, ok := claims.Events["http://schemas.openid.net/event/backchannel-logout"]; !ok {
			reject("no backchannel-logout event")
			return
		}
		if claims.Nonce != nil || lt.Nonce != "" {
			reject("nonce present")
			return
		}
		if claims.Sid == "" && lt.Subject == "" {
			reject("neither sid nor sub")
			return
		}
		if claims.Jti == "" {
			reject("no jti")
			return
		}
		mu.Lock()
		for id, s := range sessions {
			if (claims.Sid != "" && s.sid == claims.Sid) || (claims.Sid == "" && s.sub == lt.Subject) {
				delete(sessions, id)
			}
		}
		backchannel.received++
		mu.Unlock()
		w.Header().Set("cache-control", "no-store")
		w.WriteHeader(http.StatusOK)
	})

	ln, err := net.Listen("tcp", net.JoinHostPort(host, port))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("listening %s\n", base)
	log.Fatal(http.Serve(ln, nil))
}

// checkLogoutHeader: the JOSE header must say typ logout+jwt (Back-Channel Logout 1.0 section 2.4), so that an ID token
// can never be replayed as a logout token.
func checkLogoutHeader(raw string) error {
	parts := strings.Split(raw, ".")
	if len(parts) != 3 {
		return fmt.Errorf("not a JWS")
	}
	b, err := base64.RawURLEncoding.DecodeString(parts[0])
	if err != nil {
		return err
	}
	var h struct {
		Typ string `json:"typ"`
	}
	if err := json.Unmarshal(b, &h); err != nil {
		return err
	}
	if !strings.EqualFold(h.Typ, "logout+jwt") && !strings.EqualFold(h.Typ, "application/logout+jwt") {
		return fmt.Errorf("typ %q", h.Typ)
	}
	return nil
}

func loadUserinfo(ctx context.Context, provider *oidc.Provider, s *session) error {
	info, err := provider.UserInfo(ctx, oauth2.StaticTokenSource(s.token))
	if err != nil {
		return err
	}
	s.userinfo = map[string]interface{}{}
	return info.Claims(&s.userinfo)
}
