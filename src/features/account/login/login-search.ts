import { z } from 'zod';

/** Search params arrive parsed as JSON (a numeric code is a number); keep strings. */
const str = z.preprocess((v) => (v === undefined || v === null ? undefined : String(v)), z.string().max(4096).optional()).catch(undefined);

/** `/login` and `/admin/login` search (docs/DESIGN.md §6; docs/SPEC.md §2 origin / type=sso / token_reset). */
export const loginSearchSchema = z.object({
  interaction: str,
  code: str,
  state: str,
  error: str,
  error_description: str,
  type: str,
  provider: str,
  origin: str,
  token_reset: str,
});
export type LoginSearch = z.infer<typeof loginSearchSchema>;

/** Keeps where the visitor wanted to go across the authorization round trip. */
const ORIGIN_KEY = 'iam:login-origin';
export function rememberOrigin(origin: string | undefined): void {
  try {
    if (origin) window.sessionStorage.setItem(ORIGIN_KEY, origin);
  } catch {
    // storage unavailable
  }
}
export function takeOrigin(): string | undefined {
  try {
    const value = window.sessionStorage.getItem(ORIGIN_KEY);
    window.sessionStorage.removeItem(ORIGIN_KEY);
    return value ?? undefined;
  } catch {
    return undefined;
  }
}

/** The expired-password reset token handed from the login machine to /expired-password. */
const RESET_TOKEN_KEY = 'iam:reset-token';
export function storeResetToken(token: string, admin: boolean): void {
  try {
    window.sessionStorage.setItem(RESET_TOKEN_KEY, JSON.stringify({ token, admin }));
  } catch {
    // storage unavailable
  }
}
export function readResetToken(): { token: string; admin: boolean } | null {
  try {
    const raw = window.sessionStorage.getItem(RESET_TOKEN_KEY);
    if (!raw) return null;
    const value = JSON.parse(raw) as { token?: unknown; admin?: unknown };
    return typeof value.token === 'string' ? { token: value.token, admin: value.admin === true } : null;
  } catch {
    return null;
  }
}
export function clearResetToken(): void {
  try {
    window.sessionStorage.removeItem(RESET_TOKEN_KEY);
  } catch {
    // storage unavailable
  }
}
