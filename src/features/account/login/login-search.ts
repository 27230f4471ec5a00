import { searchValidator, textParam } from '../../../lib/search-params';

/** Search params arrive parsed as JSON (a numeric code is a number); keep strings. */
const str = textParam(4096);

/** `/login` and `/admin/login` search (docs/DESIGN.md §6; docs/SPEC.md §2 origin / type=sso / token_reset); no zod (entry chunk). */
export const loginSearchSchema = searchValidator({
  interaction: str,
  code: str,
  state: str,
  error: str,
  error_description: str,
  type: str,
  provider: str,
  origin: str,
  token_reset: str,
  // the app's hints (server/oidc/login-hints.ts): ui_locales is read at start-up (src/lib/i18n.ts initialLocale)
  ui_locales: str,
  login_hint: str,
});
export type LoginSearch = ReturnType<typeof loginSearchSchema>;
