import { expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { describeEachDb } from '../../helpers/app';
import { createAccount, signIn } from '../../helpers/auth';

const PW = 'Correct-Horse1!x';

describeEachDb('sign-in through the provider', (get) => {
  it('signs a user in to portal and the token works on /api/user', async () => {
    await createAccount(get(), { type: 'user', email: 'u1@example.com', password: PW });
    const tokens = await signIn(get(), { email: 'u1@example.com', password: PW });
    expect(decodeJwt(tokens.accessToken).aud).toBe('portal');
    const me = await get().app.inject({ method: 'GET', url: '/api/user?with=subscriptions', headers: { authorization: tokens.authorization } });
    expect(me.statusCode).toBe(200);
    expect(me.json().data.auth_user.email).toBe('u1@example.com');
  });
});
