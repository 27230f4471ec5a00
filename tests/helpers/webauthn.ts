import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

/**
 * A software WebAuthn authenticator for server tests: real ES256 keys, real CBOR attestation objects (`fmt: none`)
 * and authenticator data, real signatures over authData ‖ SHA-256(clientDataJSON), so the server's verification runs
 * unchanged (no mocked verify). Knobs for the negative cases: the origin and RP id it signs for, the UV flag, the
 * counter it reports, the attachment and backup flags.
 */

export interface PasskeyJSON {
  id: string;
  rawId: string;
  type: 'public-key';
  authenticatorAttachment?: 'platform' | 'cross-platform';
  clientExtensionResults: Record<string, unknown>;
  response: {
    clientDataJSON: string;
    attestationObject?: string;
    authenticatorData?: string;
    signature?: string;
    userHandle?: string;
    transports?: string[];
  };
}

interface StoredCredential {
  id: Buffer;
  key: KeyObject;
  userHandle: string;
  counter: number;
}

export interface CeremonyOverrides {
  origin?: string;
  rpId?: string;
  /** user verified flag (default true) */
  uv?: boolean;
  /** the counter to report instead of the next one */
  counter?: number;
  /** the challenge to sign instead of the options' one */
  challenge?: string;
  /** sign with this credential (default: the last one created) */
  credentialId?: string;
}

const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest();
const b64u = (b: Buffer | Uint8Array) => Buffer.from(b).toString('base64url');

function flags(o: { uv: boolean; be: boolean; bs: boolean; at?: boolean }): number {
  return 0x01 | (o.uv ? 0x04 : 0) | (o.be ? 0x08 : 0) | (o.bs ? 0x10 : 0) | (o.at ? 0x40 : 0);
}

function counterBytes(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
}

export class SoftAuthenticator {
  readonly credentials = new Map<string, StoredCredential>();
  private last: string | undefined;

  constructor(
    readonly opts: { origin: string; rpId?: string; attachment?: 'platform' | 'cross-platform'; backupEligible?: boolean; startCounter?: number } = { origin: 'http://localhost:3000' },
  ) {}

  private rpId(o?: CeremonyOverrides): string {
    return o?.rpId ?? this.opts.rpId ?? new URL(this.opts.origin).hostname;
  }

  private clientData(type: string, challenge: string, o?: CeremonyOverrides): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge: o?.challenge ?? challenge, origin: o?.origin ?? this.opts.origin, crossOrigin: false }));
  }

  /** navigator.credentials.create() */
  create(options: { challenge: string; user: { id: string } }, o?: CeremonyOverrides): PasskeyJSON {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const cose = new Map<number, number | Uint8Array>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(String(jwk.x), 'base64url')],
      [-3, Buffer.from(String(jwk.y), 'base64url')],
    ]);
    const id = randomBytes(16);
    const counter = this.opts.startCounter ?? 0;
    const be = this.opts.backupEligible ?? false;
    const authData = Buffer.concat([
      sha256(this.rpId(o)),
      Buffer.from([flags({ uv: o?.uv ?? true, be, bs: be, at: true })]),
      counterBytes(counter),
      Buffer.alloc(16), // aaguid
      Buffer.from([id.length >> 8, id.length & 0xff]),
      id,
      Buffer.from(isoCBOR.encode(cose)),
    ]);
    const attestationObject = Buffer.from(isoCBOR.encode(new Map<string, unknown>([['fmt', 'none'], ['attStmt', new Map()], ['authData', authData]]) as never));
    const cid = b64u(id);
    this.credentials.set(cid, { id, key: privateKey, userHandle: options.user.id, counter });
    this.last = cid;
    return {
      id: cid,
      rawId: cid,
      type: 'public-key',
      authenticatorAttachment: this.opts.attachment ?? 'platform',
      clientExtensionResults: {},
      response: { clientDataJSON: b64u(this.clientData('webauthn.create', options.challenge, o)), attestationObject: b64u(attestationObject), transports: ['internal'] },
    };
  }

  /** navigator.credentials.get() */
  get(options: { challenge: string }, o?: CeremonyOverrides): PasskeyJSON {
    const cid = o?.credentialId ?? this.last;
    const cred = cid ? this.credentials.get(cid) : undefined;
    if (!cid || !cred) throw new Error('no credential');
    if (o?.counter === undefined) cred.counter += 1;
    const be = this.opts.backupEligible ?? false;
    const authData = Buffer.concat([sha256(this.rpId(o)), Buffer.from([flags({ uv: o?.uv ?? true, be, bs: be })]), counterBytes(o?.counter ?? cred.counter)]);
    const clientDataJSON = this.clientData('webauthn.get', options.challenge, o);
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), cred.key);
    return {
      id: cid,
      rawId: cid,
      type: 'public-key',
      authenticatorAttachment: this.opts.attachment ?? 'platform',
      clientExtensionResults: {},
      response: { clientDataJSON: b64u(clientDataJSON), authenticatorData: b64u(authData), signature: b64u(signature), userHandle: cred.userHandle },
    };
  }
}
