/**
 * Types and helpers shared by the statecharts. Nothing here touches the DOM,
 * the router or the network: side effects reach the machines only through
 * `.provide({ actors, actions })`.
 */
import type { ClientConfig } from '../contract/system';

/** Client storage keys (docs/SPEC.md §3 "Stored client keys"). */
export const STORAGE_KEYS = {
  token: 'token',
  codeVerifier: 'code_verifier',
  locale: 'locale',
  adminSession: 'admin_session',
} as const;
export type StorageKey = (typeof STORAGE_KEYS)[keyof typeof STORAGE_KEYS];

export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** What the machines use of the public client configuration (contract/system.ts clientConfig; docs/DESIGN.md §7). */
export type OidcClientConfig = Pick<ClientConfig, 'issuer' | 'authorization_endpoint' | 'token_endpoint' | 'end_session_endpoint' | 'scope' | 'clients' | 'sso_providers'>;

/** What the `token` storage key holds (JSON). */
export interface Tokens {
  access_token: string;
  refresh_token: string | null;
  id_token: string | null;
  /** Epoch milliseconds. */
  expires_at: number;
  /** client_id the tokens were issued to (`portal` or `admin-console`). */
  client: string;
}

export interface TokenEndpointResponse {
  access_token: string;
  refresh_token?: string;
  id_token?: string;
  expires_in?: number;
  token_type?: string;
}

export function tokensFromResponse(response: TokenEndpointResponse, client: string, now: number): Tokens {
  return {
    access_token: response.access_token,
    refresh_token: response.refresh_token ?? null,
    id_token: response.id_token ?? null,
    expires_at: now + (response.expires_in ?? 0) * 1000,
    client,
  };
}

export function parseTokens(raw: string | null): Tokens | null {
  if (!raw) return null;
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value !== 'object' || value === null) return null;
    const v = value as Record<string, unknown>;
    if (typeof v.access_token !== 'string' || typeof v.client !== 'string') return null;
    return {
      access_token: v.access_token,
      refresh_token: typeof v.refresh_token === 'string' ? v.refresh_token : null,
      id_token: typeof v.id_token === 'string' ? v.id_token : null,
      expires_at: typeof v.expires_at === 'number' ? v.expires_at : 0,
      client: v.client,
    };
  } catch {
    return null;
  }
}

/**
 * What an injected call rejects with when it fails: the SPA's ApiError (src/api/errors.ts) has this shape.
 * `kind`: no answer (network, timeout) or an HTTP error answer with the contract's `code` and field errors.
 */
export interface CallFailure {
  kind: 'network' | 'timeout' | 'http';
  status?: number;
  code?: string;
  fields?: Record<string, string[]>;
  /** Seconds, from a 429 answer. */
  retryAfter?: number;
}

export function isCallFailure(error: unknown): error is Error & CallFailure {
  if (!(error instanceof Error)) return false;
  const kind = (error as Partial<CallFailure>).kind;
  return kind === 'network' || kind === 'timeout' || kind === 'http';
}

export function notProvided(name: string): never {
  throw new Error(`${name} not provided: pass it with machine.provide()`);
}

/** `origin + /login` or `origin + /admin/login` */
export function loginPath(admin: boolean): '/login' | '/admin/login' {
  return admin ? '/admin/login' : '/login';
}
