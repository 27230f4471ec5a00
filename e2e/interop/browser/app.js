// A browser-only relying party (public client, no secret) on stock oidc-client-ts: authorization code +
// PKCE S256, UserInfo over CORS, refresh with the refresh token, RP-initiated sign-out (signoutRedirect).
// The settings are the oidc-client-ts set-up of docs/INTEGRATING.md. /config.json supplies issuer and client id.
/* global oidc */
(async function () {
  const cfg = await (await fetch('/config.json')).json();
  const base = window.location.origin;
  const mgr = new oidc.UserManager({
    authority: cfg.issuer, // discovery: <issuer>/.well-known/openid-configuration
    client_id: cfg.client_id,
    redirect_uri: base + '/callback',
    post_logout_redirect_uri: base + '/',
    response_type: 'code',
    scope: cfg.scope, // e.g. 'openid profile email roles offline_access'
    prompt: cfg.scope.split(' ').includes('offline_access') ? 'consent' : undefined, // OIDC Core: offline_access needs prompt=consent
    loadUserInfo: true,
    automaticSilentRenew: false,
    userStore: new oidc.WebStorageStateStore({ store: window.sessionStorage }),
  });
  const state = document.getElementById('state');
  const out = document.getElementById('out');
  const show = (id, text) => {
    const el = document.createElement(id === 'userinfo' || id === 'id-claims' ? 'pre' : 'p');
    el.id = id;
    el.textContent = text;
    out.appendChild(el);
  };
  const tag = async (token) => {
    const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token));
    return Array.from(new Uint8Array(digest)).map((b) => b.toString(16).padStart(2, '0')).join('').slice(0, 12);
  };
  const fail = (err) => {
    state.textContent = 'error';
    show('error', (err && (err.error || err.message)) || String(err));
  };
  const path = window.location.pathname;
  try {
    if (path === '/login') return await mgr.signinRedirect();
    if (path === '/callback') {
      await mgr.signinRedirectCallback();
      sessionStorage.setItem('refreshes', '0');
      return window.location.replace('/');
    }
    if (path === '/refresh') {
      await mgr.signinSilent(); // uses the refresh token (grant_type=refresh_token) when there is one
      sessionStorage.setItem('refreshes', String(Number(sessionStorage.getItem('refreshes') || '0') + 1));
      return window.location.replace('/');
    }
    if (path === '/logout') return await mgr.signoutRedirect();
    const user = await mgr.getUser();
    if (!user) {
      state.textContent = 'signed-out';
      show('links', '');
      document.getElementById('links').innerHTML = '<a href="/login">Sign in</a>';
      return;
    }
    // UserInfo again, straight from the endpoint (CORS), with the current access token
    const me = await fetch(await mgr.metadataService.getUserInfoEndpoint(), { headers: { Authorization: 'Bearer ' + user.access_token } });
    const userinfo = me.ok ? await me.json() : { error: me.status };
    state.textContent = 'signed-in';
    show('id-claims', JSON.stringify(user.profile, null, 2));
    show('userinfo', JSON.stringify(userinfo, null, 2));
    show('refreshes', sessionStorage.getItem('refreshes') || '0');
    show('at-hash', await tag(user.access_token));
    show('has-refresh-token', user.refresh_token ? 'yes' : 'no');
  } catch (err) {
    fail(err);
  }
})();
