import { expect, it, vi } from 'vitest';
import pino from 'pino';
import { describeEachDb } from '../../helpers/app';
import { createOidcRuntime } from '../../../server/oidc/index';

const log = pino({ level: 'silent' });

describeEachDb('the OIDC runtime of an app', (get) => {
  it('loads its keys on first use, serves one provider per key set, and stops its poll on close', async () => {
    const { db, config } = get();
    const runtime = createOidcRuntime({ db, config, log });
    const ring = await runtime.ring();
    expect(await runtime.ring()).toBe(ring);
    expect(await runtime.provider()).toBe(await runtime.provider());
    const stop = vi.spyOn(ring, 'stop');
    await runtime.close();
    expect(stop).toHaveBeenCalledTimes(1);
  });

  it('closed while its keys are still loading, it never starts the poll', async () => {
    const { db, config } = get();
    const runtime = createOidcRuntime({ db, config, log });
    const loading = runtime.ring();
    await runtime.close();
    const ring = await loading;
    // KeyRing keeps its poll timer in `timer` (server/oidc/keys.ts): none was started
    expect((ring as unknown as { timer?: unknown }).timer).toBeUndefined();
  });

  it('the app decorates its runtime and the provider comes from it', async () => {
    const { app } = get();
    expect(await app.oidc.provider()).toBe(await app.oidc.provider());
    expect((await app.oidc.ring()).keys.length).toBeGreaterThan(0);
  });
});
