import { expect, it } from 'vitest';
import { describeEachDb } from '../../helpers/app';
import { createAccount, signIn } from '../../helpers/auth';

const PASSWORD = 'Str0ng!Passw0rd#';

describeEachDb('account security routes never answer 5xx to junk', (get) => {
  it('bodies of the wrong shape, huge values and odd keys get 4xx', async () => {
    const t = get();
    const admin = await createAccount(t, { type: 'admin', email: `junk-${Date.now()}@example.test`, password: PASSWORD });
    const tokens = await signIn(t, { email: admin.email, password: PASSWORD, client: 'admin-console' });
    const auth = { authorization: tokens.authorization };
    const bodies: unknown[] = [null, [], 'str', 42, { url: 5 }, { url: 'x'.repeat(5000), password: 'a', password_confirmation: 'a' }, { email: ['a'] }, { reset_token: '../../etc', password: PASSWORD, password_confirmation: PASSWORD }, { url: 'http://localhost:3000/api/user/verify-link?token=a&token=b&expires=1&signature=x', password: PASSWORD, password_confirmation: PASSWORD }, { uuid: { $ne: 1 } }, { one_time_password: 123456 }];
    const posts = ['/api/user/verify', '/api/admin/verify', '/api/forgot-password', '/api/admin/forgot-password', '/api/reset-password-token', '/api/reset-password', '/api/admin/reset-password', '/api/admin/change-password', '/api/admin/user/change-password', '/api/admin/user/verify-manually', '/api/2fa/google/enable', '/api/2fa/sms/enable', '/api/2fa/disable'];
    for (const [u, url] of posts.entries()) {
      for (const [b, body] of bodies.entries()) {
        // an address of its own per request (not a random one): per-IP limits never decide which code path is hit
        const res = await t.app.inject({ method: 'POST', url, headers: { ...auth, 'content-type': 'application/json' }, payload: JSON.stringify(body), remoteAddress: `10.77.${u}.${b + 1}` });
        expect(res.statusCode, `${url} ${JSON.stringify(body).slice(0, 80)}`).toBeLessThan(500);
        expect(res.statusCode).toBeGreaterThanOrEqual(200);
      }
    }
    for (const url of ['/api/user/verify-link?token=%00&expires=-1&signature=zz', '/api/admin/verify-link?expires=99999999999999999999', '/api/reset-password-link?token=' + 'a'.repeat(300), `/api/admin/locks?account_id=${'x'.repeat(100)}`, '/api/admin/locks?prefix=%25_']) {
      const res = await t.app.inject({ method: 'GET', url, headers: auth });
      expect(res.statusCode, url).toBeLessThan(500);
    }
    for (const key of ['%00', 'a'.repeat(400), 'rate%3Asms30%3Ax', '..%2F..']) {
      const res = await t.app.inject({ method: 'DELETE', url: `/api/admin/locks/${key}`, headers: auth });
      expect(res.statusCode, key).toBeLessThan(500);
    }
    const res = await t.app.inject({ method: 'POST', url: '/api/admin/users/%00/token-generate', headers: auth });
    expect(res.statusCode).toBeLessThan(500);
  });
});
