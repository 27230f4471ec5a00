import { oneOfParam, searchValidator, stringParam, textParam } from './search-params';

/** `/admin/setup?token=` (first-start link printed by the server). */
export const adminSetupSearch = searchValidator({ token: textParam(512) });
/** `?url=` of the password reset and verification link screens. */
export const linkUrlSearch = searchValidator({ url: stringParam(4096) });
/** `?type=admin` of /forgot-password and /expired-password. */
export const adminTypeSearch = searchValidator({ type: oneOfParam(['admin']) });
