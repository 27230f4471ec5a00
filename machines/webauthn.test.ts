import { describe, expect, it } from 'vitest';
import { toCeremonyError } from './webauthn';

const dom = (name: string) => Object.assign(new Error(name), { name });
/** What @simplewebauthn/browser throws: a WebAuthnError with its own code and the DOMException as cause. */
const wrapped = (code: string, cause: Error) => Object.assign(new Error(code), { name: 'WebAuthnError', code, cause });

describe('toCeremonyError: a rejected passkey ceremony as the machines keep it', () => {
  it.each([
    ['NotAllowedError', 'passkey_cancelled', true],
    ['AbortError', 'passkey_aborted', true],
    ['InvalidStateError', 'passkey_already_registered', false],
    ['NotSupportedError', 'passkey_unsupported', false],
    ['SecurityError', 'passkey_unsupported', false],
    ['ConstraintError', 'passkey_unsupported', false],
  ])('%s → %s', (name, code, retryable) => {
    expect(toCeremonyError(dom(name))).toEqual({ code, retryable });
    expect(toCeremonyError(wrapped('ERROR_PASSTHROUGH_SEE_CAUSE_PROPERTY', dom(name)))).toEqual({ code, retryable });
  });

  it("reads the library's own codes when the cause has no name it knows", () => {
    expect(toCeremonyError(wrapped('ERROR_CEREMONY_ABORTED', new Error('x'))).code).toBe('passkey_aborted');
    expect(toCeremonyError(wrapped('ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED', new Error('x'))).code).toBe('passkey_already_registered');
    expect(toCeremonyError(wrapped('ERROR_INVALID_RP_ID', new Error('x'))).code).toBe('passkey_unsupported');
  });

  it('keeps a failed call its contract code, and anything else is unexpected', () => {
    const failure = Object.assign(new Error('401'), { kind: 'http', status: 401, code: 'passkey_unknown' });
    expect(toCeremonyError(failure).code).toBe('passkey_unknown');
    expect(toCeremonyError(new TypeError('boom'))).toEqual({ code: 'unexpected', retryable: true });
    expect(toCeremonyError('nope')).toEqual({ code: 'unexpected', retryable: true });
  });
});
