import { z } from 'zod';
import { LOCALES } from '../locales';

/** docs/SPEC.md §5 formats, shared by the SPA and the server. */
export const PHONE_RE = /^\+[0-9]{4,15}$/;
/** Subscription name XX_XX(X): upper-case segments joined by underscores (2 or 3 segments). */
export const SUBSCRIPTION_NAME_RE = /^[A-Z0-9]+_[A-Z0-9]+(_[A-Z0-9]+)?$/;
/** Role name XX_XX(X)(_XX*): two or more upper-case segments. */
export const ROLE_NAME_RE = /^[A-Z0-9]+(_[A-Z0-9]+)+$/;
export const SERVICE_PATH_RE = /^\/[A-Za-z0-9\-._~!$&'()*+,;=:@%/]*$/;
export { LOCALES, type Locale } from '../locales';

/**
 * A service app's one redirect URI: its URL (trailing slashes dropped) followed by its path, e.g.
 * `https://billing.example.com` + `/auth/callback`. The provider (server/oidc/adapter.ts) registers exactly this, and
 * the service app form shows it live as the two fields are typed.
 */
export function serviceRedirectUri(url: string, path: string): string {
  return `${url.trim().replace(/\/+$/, '')}${path.trim()}`;
}

export const emailSchema = z.string().trim().min(1).max(254).pipe(z.email());
export const phoneSchema = z.string().trim().regex(PHONE_RE);
export const roleNameSchema = z.string().trim().min(1).max(64).regex(ROLE_NAME_RE);
export const subscriptionNameSchema = z.string().trim().min(1).max(64).regex(SUBSCRIPTION_NAME_RE);
export const servicePathSchema = z.string().trim().min(1).max(255).regex(SERVICE_PATH_RE);
export const serviceUrlSchema = z
  .string()
  .trim()
  .min(1)
  .max(2048)
  .pipe(z.url({ protocol: /^https?$/ }));
export const localeSchema = z.enum(LOCALES);
export const personNameSchema = z.string().trim().min(1).max(100);

/** Ids and keys from clients: no control characters (PostgreSQL refuses NUL in text; that must be a 422, not a 5xx). */
// eslint-disable-next-line no-control-regex
export const NO_CONTROL = /^[^\u0000-\u001f\u007f]+$/;
