import { afterEach, expect, it, vi } from 'vitest';
import { describeEachDb } from '../../../helpers/app';
import { createAccount, exchangeCode, followToCode, startAuthorize } from '../../../helpers/auth';
import type { Release } from '../../../../server/lib/admission';
import type { AdmissionStep } from '../../../../server/lib/admission';

const PW = 'Correct-Horse1!x';

/**
 * Admission control of the sign-in flow (server/plugins/app/admission.ts): a step whose gate is held full (its
 * slots and its queue) refuses the next request at once with 503 + Retry-After and a stable code, before any of
 * its work; refusals are counted, not logged one by one; once the gate frees, the same request goes through.
 */
describeEachDb(
  'sign-in admission control',
  (get) => {
    const held: Release[] = [];
    /** Takes every slot and queue place of a step's gate (as that many requests in flight would). */
    const fill = (step: AdmissionStep) => {
      const gate = get().app.admission.gates[step];
      const { concurrency, queue } = gate.limits;
      for (let i = 0; i < concurrency + queue; i++) {
        const entered = gate.enter();
        if (!entered) throw new Error('gate refused before it was full');
        if (typeof entered === 'function') held.push(entered);
        else void entered.then((release) => held.push(release));
      }
    };
    const releaseAll = async () => {
      // queued entries get their slot as earlier ones are released
      for (let i = 0; i < 100 && held.length; i++) {
        held.splice(0).forEach((r) => r());
        await new Promise((r) => setImmediate(r));
      }
    };
    afterEach(async () => {
      await releaseAll();
      vi.restoreAllMocks();
    });

    it('login: the request past the gate gets 503 service_unavailable with Retry-After at once, localized, and is counted, not logged', async () => {
      const t = get();
      await createAccount(t, { type: 'user', email: 'busy-login@example.com', password: PW });
      const start = await startAuthorize(t);
      const warn = vi.spyOn(t.app.log, 'warn');
      const error = vi.spyOn(t.app.log, 'error');
      const before = t.app.admission.refusals.pending().login ?? 0;
      fill('login');
      const res = await t.app.inject({ method: 'POST', url: '/api/login', headers: { cookie: start.jar.header(),  'accept-language': 'de' }, payload: { email: 'busy-login@example.com', password: PW, interaction: start.interaction } });
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('1');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.json()).toEqual({ error: { code: 'service_unavailable', message: 'Der Dienst ist ausgelastet, bitte gleich erneut versuchen' } });
      expect(t.app.admission.refusals.pending().login).toBe(before + 1);
      expect(warn).not.toHaveBeenCalled();
      expect(error).not.toHaveBeenCalled();

      // refused before any work: no lockout slot was taken, the interaction is intact; once free, it signs in
      await releaseAll();
      const ok = await t.app.inject({ method: 'POST', url: '/api/login', headers: { cookie: start.jar.header() }, payload: { email: 'busy-login@example.com', password: PW, interaction: start.interaction } });
      expect(ok.statusCode).toBe(200);
      const data = ok.json<{ data: { status: string; redirect_to: string } }>().data;
      expect(data.status).toBe('complete');
      const { code } = await followToCode(t, start, data.redirect_to);
      expect(code).toBeTruthy();
      await exchangeCode(t, start, code ?? '');
    });

    it('many refused logins do not lock the account (no attempt was evaluated)', async () => {
      const t = get();
      await createAccount(t, { type: 'user', email: 'busy-lock@example.com', password: PW });
      const start = await startAuthorize(t);
      fill('login');
      for (let i = 0; i < t.config.lockout.accountMaxFailures + 2; i++) {
        const res = await t.app.inject({ method: 'POST', url: '/api/login', headers: { cookie: start.jar.header() }, payload: { email: 'busy-lock@example.com', password: PW, interaction: start.interaction } });
        expect(res.statusCode).toBe(503);
      }
      await releaseAll();
      const ok = await t.app.inject({ method: 'POST', url: '/api/login', headers: { cookie: start.jar.header() }, payload: { email: 'busy-lock@example.com', password: PW, interaction: start.interaction } });
      expect(ok.statusCode).toBe(200);
    });

    it('authorization: a browser gets the product page (503, Retry-After, localized, a retry link); other clients an OAuth error', async () => {
      const t = get();
      fill('authorize');
      const url = '/oidc/auth?client_id=portal&response_type=code&scope=openid&redirect_uri=http%3A%2F%2Flocalhost%3A3000%2Flogin&state=abcdefghijabcdefghij&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM&code_challenge_method=S256';
      const page = await t.app.inject({ method: 'GET', url, headers: { accept: 'text/html,application/xhtml+xml', 'accept-language': 'fr' } });
      expect(page.statusCode).toBe(503);
      expect(page.headers['retry-after']).toBe('1');
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.body).toContain('<html lang="fr">');
      expect(page.body).toContain('Trop de connexions en ce moment');
      expect(page.body).toContain('id="busy-retry"');
      expect(page.body).toContain('/api/oidc-pages/pages.css');
      const json = await t.app.inject({ method: 'GET', url });
      expect(json.statusCode).toBe(503);
      expect(json.headers['retry-after']).toBe('1');
      expect(json.json()).toMatchObject({ error: 'temporarily_unavailable' });
      await releaseAll();
      const ok = await t.app.inject({ method: 'GET', url });
      expect(ok.statusCode).toBe(303);
    });

    it('authorization refuses new sign-ins while the login step is pressed; admitted sign-ins still resume and get tokens', async () => {
      const t = get();
      await createAccount(t, { type: 'user', email: 'busy-flow@example.com', password: PW });
      const start = await startAuthorize(t);
      const login = await t.app.inject({ method: 'POST', url: '/api/login', headers: { cookie: start.jar.header() }, payload: { email: 'busy-flow@example.com', password: PW, interaction: start.interaction } });
      const data = login.json<{ data: { redirect_to: string } }>().data;
      fill('login');
      const refused = await t.app.inject({ method: 'GET', url: '/oidc/auth?client_id=portal&response_type=code&scope=openid' });
      expect(refused.statusCode).toBe(503);
      expect(refused.headers['retry-after']).toBe('1');
      const { code } = await followToCode(t, start, data.redirect_to);
      expect(code).toBeTruthy();
      const tokens = await exchangeCode(t, start, code ?? '');
      expect(tokens.accessToken).toBeTruthy();
    });

    it('token: the request past the gate gets 503 temporarily_unavailable with Retry-After; the code still works afterwards', async () => {
      const t = get();
      await createAccount(t, { type: 'user', email: 'busy-token@example.com', password: PW });
      const start = await startAuthorize(t);
      const login = await t.app.inject({ method: 'POST', url: '/api/login', headers: { cookie: start.jar.header() }, payload: { email: 'busy-token@example.com', password: PW, interaction: start.interaction } });
      const { code } = await followToCode(t, start, login.json<{ data: { redirect_to: string } }>().data.redirect_to);
      const before = t.app.admission.refusals.pending().token ?? 0;
      fill('token');
      const res = await t.app.inject({
        method: 'POST',
        url: '/oidc/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ grant_type: 'authorization_code', code: code ?? '', redirect_uri: start.redirectUri, client_id: 'portal', code_verifier: start.verifier }).toString(),
      });
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('1');
      expect(res.json()).toMatchObject({ error: 'temporarily_unavailable' });
      expect(t.app.admission.refusals.pending().token).toBe(before + 1);
      await releaseAll();
      const tokens = await exchangeCode(t, start, code ?? '');
      expect(tokens.accessToken).toBeTruthy();
    });

    it('admitted requests give their slot back when answered', async () => {
      const t = get();
      await t.app.inject({ method: 'POST', url: '/api/login', payload: { email: 'nobody@example.com', password: PW, interaction: 'x'.repeat(43) } });
      await t.app.inject({ method: 'GET', url: '/oidc/auth?client_id=portal' });
      await t.app.inject({ method: 'POST', url: '/oidc/token', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'grant_type=authorization_code&code=nope&client_id=portal' });
      for (const step of ['login', 'authorize', 'token'] as const) expect(t.app.admission.gates[step].load).toEqual({ active: 0, queued: 0 });
    });
  },
  { IAM_HASH_CONCURRENCY: '2', IAM_HASH_QUEUE: '2' },
);
