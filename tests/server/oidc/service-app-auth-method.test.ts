import { randomBytes } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import * as client from 'openid-client';
import { describeEachDb } from '../../helpers/app';
import { createAccount } from '../../helpers/auth';
import { freePort } from '../../helpers/http';
import { authorizeInBrowser, seedServiceApp } from '../../helpers/service-app';
import { actor, type Actor } from '../admin/fixtures';

const PW = 'Correct-Horse1!x';

/** The OAuth error code of a failed openid-client call: a JSON error body, or the WWW-Authenticate challenge of a 401 to Basic. */
function oauthError(e: unknown): string | undefined {
  if (e instanceof client.ResponseBodyError) return e.error;
  if (e instanceof client.WWWAuthenticateChallengeError) return e.cause[0]?.parameters.error;
  return undefined;
}
const port = await freePort();
const appUrl = `http://127.0.0.1:${port}`;

describeEachDb(
  'service apps: token endpoint client authentication per app (client_secret_basic / client_secret_post, openid-client 6)',
  (get) => {
    let admin: Actor;
    const inject = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object, lang = 'en') =>
      get().app.inject({ method, url, headers: { ...admin.headers, 'accept-language': lang }, ...(payload ? { payload } : {}) });

    beforeAll(async () => {
      await get().app.listen({ port, host: '127.0.0.1' });
      admin = await actor(get(), 'super_admin');
    });

    /** Signs `email` in to the app through the real endpoints; returns the callback URL carrying the code. */
    const signIn = (config: client.Configuration, redirectUri: string, email: string) =>
      authorizeInBrowser({ appUrl, config, redirectUri, email, password: PW, params: { scope: 'openid email' } });

    const discover = (name: string, auth: client.ClientAuth) => client.discovery(new URL(`${appUrl}/oidc`), name, undefined, auth, { execute: [client.allowInsecureRequests] });

    it('discovery advertises both secret methods; each app is held to its registered method at the token endpoint', async () => {
      const t = get();
      const meta = (await (await fetch(`${appUrl}/oidc/.well-known/openid-configuration`)).json()) as { token_endpoint_auth_methods_supported: string[] };
      expect(meta.token_endpoint_auth_methods_supported).toEqual(expect.arrayContaining(['client_secret_basic', 'client_secret_post', 'none']));

      const email = `am-${t.kind}-${randomBytes(3).toString('hex')}@example.com`;
      const acct = await createAccount(t, { type: 'user', email, password: PW });
      const postApp = await seedServiceApp(t, { members: [acct.id], clientType: 'confidential', url: 'https://post.example', path: '/cb', extra: { token_endpoint_auth_method: 'client_secret_post' } });
      const basicApp = await seedServiceApp(t, { members: [acct.id], clientType: 'confidential', url: 'https://basic.example', path: '/cb' });

      for (const [sa, right, wrong] of [
        [postApp, client.ClientSecretPost(String(postApp.secret)), client.ClientSecretBasic(String(postApp.secret))],
        [basicApp, client.ClientSecretBasic(String(basicApp.secret)), client.ClientSecretPost(String(basicApp.secret))],
      ] as const) {
        const good = await discover(sa.name, right);
        const bad = await discover(sa.name, wrong);
        const { callback, verifier, state } = await signIn(good, sa.redirectUri, email);
        // the right secret sent the other way is refused before the code is looked at ...
        const refused = await client.authorizationCodeGrant(bad, callback, { pkceCodeVerifier: verifier, expectedState: state }).then(() => null, (e: unknown) => e);
        expect(oauthError(refused), String(refused)).toBe('invalid_client');
        // ... and the same code then redeems with the registered method
        const tokens = await client.authorizationCodeGrant(good, callback, { pkceCodeVerifier: verifier, expectedState: state, idTokenExpected: true });
        expect(tokens.claims()?.sub).toBe(acct.id);
        expect(tokens.claims()?.aud).toBe(sa.name);
        // introspection (answered by the product) holds the app to the same method
        expect(await client.tokenIntrospection(good, tokens.access_token)).toMatchObject({ active: true, client_id: sa.name });
        const notAllowed = await client.tokenIntrospection(bad, tokens.access_token).then(() => null, (e: unknown) => e);
        expect(notAllowed, String(notAllowed)).toMatchObject({ status: 401 });
      }
    });

    it('admin API: token_endpoint_auth_method on create/update/read for confidential apps only; the oidc block reflects it', async () => {
      const t = get();
      const created = await inject('POST', '/api/admin/service-apps', { name: `post-app-${t.kind}`, display_name: 'Post', url: 'https://post-admin.example', path: '/cb', client_type: 'confidential', token_endpoint_auth_method: 'client_secret_post' });
      expect(created.statusCode).toBe(201);
      const app = created.json().data;
      expect(app).toMatchObject({ token_endpoint_auth_method: 'client_secret_post', oidc: { token_endpoint_auth_method: 'client_secret_post' } });
      expect((await inject('GET', `/api/admin/service-apps/${app.id}`)).json().data).toMatchObject({ token_endpoint_auth_method: 'client_secret_post', oidc: { token_endpoint_auth_method: 'client_secret_post' } });
      // stored as set: the provider's client metadata reads it
      expect((await t.db.kysely.selectFrom('service_apps').select('token_endpoint_auth_method').where('id', '=', app.id).executeTakeFirstOrThrow()).token_endpoint_auth_method).toBe('client_secret_post');

      // other edits keep it; an explicit change switches it
      expect((await inject('PATCH', `/api/admin/service-apps/${app.id}`, { display_name: 'Post 2' })).json().data.token_endpoint_auth_method).toBe('client_secret_post');
      expect((await inject('PATCH', `/api/admin/service-apps/${app.id}`, { token_endpoint_auth_method: 'client_secret_basic' })).json().data).toMatchObject({ token_endpoint_auth_method: 'client_secret_basic', oidc: { token_endpoint_auth_method: 'client_secret_basic' } });
      expect((await inject('PATCH', `/api/admin/service-apps/${app.id}`, { token_endpoint_auth_method: 'client_secret_post' })).statusCode).toBe(200);

      // default for a confidential app: client_secret_basic; public apps: none
      const plain = (await inject('POST', '/api/admin/service-apps', { name: `basic-app-${t.kind}`, display_name: 'B', url: 'https://b.example', path: '/cb', client_type: 'confidential' })).json().data;
      expect(plain).toMatchObject({ token_endpoint_auth_method: 'client_secret_basic', oidc: { token_endpoint_auth_method: 'client_secret_basic' } });

      // a secret method on a public app: localized 422 on the field, nothing written
      for (const method of ['client_secret_post', 'client_secret_basic']) {
        const bad = await inject('POST', '/api/admin/service-apps', { name: `pub-am-${t.kind}`, display_name: 'P', url: 'https://p.example', path: '/cb', token_endpoint_auth_method: method }, 'fr');
        expect(bad.statusCode).toBe(422);
        expect(bad.json().error.fields.token_endpoint_auth_method).toEqual(['confidential_only']);
        expect(bad.json().error.field_messages.token_endpoint_auth_method[0]).toContain('confidentielles');
      }
      expect(await t.db.kysely.selectFrom('service_apps').select('id').where('name', '=', `pub-am-${t.kind}`).executeTakeFirst()).toBeUndefined();
      // an unknown method is a schema 422
      expect((await inject('PATCH', `/api/admin/service-apps/${app.id}`, { token_endpoint_auth_method: 'private_key_jwt' })).statusCode).toBe(422);

      // switching to public resets it (none); asking for it while public or while switching is refused, nothing written
      const toPublicWithMethod = await inject('PATCH', `/api/admin/service-apps/${app.id}`, { client_type: 'public', token_endpoint_auth_method: 'client_secret_post' });
      expect(toPublicWithMethod.statusCode).toBe(422);
      expect((await inject('GET', `/api/admin/service-apps/${app.id}`)).json().data).toMatchObject({ client_type: 'confidential', token_endpoint_auth_method: 'client_secret_post' });
      const pub = await inject('PATCH', `/api/admin/service-apps/${app.id}`, { client_type: 'public' });
      expect(pub.json().data).toMatchObject({ client_type: 'public', token_endpoint_auth_method: 'none', oidc: { token_endpoint_auth_method: 'none' } });
      expect((await inject('PATCH', `/api/admin/service-apps/${app.id}`, { token_endpoint_auth_method: 'client_secret_post' })).statusCode).toBe(422);
      // back to confidential: the default again, unless asked for
      const back = await inject('PATCH', `/api/admin/service-apps/${app.id}`, { client_type: 'confidential' });
      expect(back.json().data).toMatchObject({ client_type: 'confidential', token_endpoint_auth_method: 'client_secret_basic' });
      expect(back.json().data.client_secret).toBeTruthy();
    });
  },
  { APP_URL: appUrl },
);
