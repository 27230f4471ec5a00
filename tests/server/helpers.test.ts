import { describe, expect, it } from 'vitest';
import { Secret, TOTP } from 'otpauth';
import { notATotpCode } from '../helpers/auth';
import { ephemeralPortsStart, freePort } from '../helpers/http';

describe('notATotpCode (a wrong code that stays wrong whatever the clock)', () => {
  // a secret and a moment where the previous step's code is 000000: the server's ±1 window accepts it
  const secret = Secret.fromBase32('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP');
  const codeAt = (timestamp: number) => TOTP.generate({ secret, timestamp, algorithm: 'SHA1', digits: 6, period: 30 });
  const T = 1_945_998_450_000 + 30_000 + 15_000;

  it('is none of the codes of the steps within ±2 periods', () => {
    expect(codeAt(T - 30_000)).toBe('000000');
    // so `'000000' === current ? '111111' : '000000'` picked a code the server accepts
    expect(codeAt(T)).not.toBe('000000');
    const wrong = notATotpCode(codeAt, T);
    expect(wrong).toMatch(/^\d{6}$/);
    for (const k of [-2, -1, 0, 1, 2]) expect(codeAt(T + k * 30_000)).not.toBe(wrong);
  });
});

describe('freePort', () => {
  it('hands out ports below the ephemeral range, which outgoing connections never take in the meantime', async () => {
    const top = ephemeralPortsStart();
    for (let i = 0; i < 20; i++) {
      const port = await freePort();
      expect(port).toBeGreaterThanOrEqual(1024);
      expect(port).toBeLessThan(top);
    }
  });
});
