/**
 * The provider's own HTML pages, CSP-friendly: no inline script, no inline style, no external fonts,
 * localized from Accept-Language. (The provider's auto-submitting form_post page adds its script
 * hash to our CSP itself.)
 */
import { negotiateLanguage, translate, type Language } from '../i18n/index';

const esc = (v: unknown): string => String(v ?? '').replace(/[&<>"'`=/]/g, (c) => `&#${c.charCodeAt(0)};`);

/** Same-origin script that confirms the logout form (served by routes/oidc-pages.routes.ts). */
export const LOGOUT_SCRIPT_PATH = '/api/oidc-pages/logout.js';
// presses the page's own "Yes" button, so the form carries logout=yes exactly once (adding a hidden
// input as well made a later press of the button send the parameter twice: 400)
export const LOGOUT_SCRIPT = `(function(){var b=document.getElementById('op.logoutYes');if(b)b.click();})();`;

/**
 * Same-origin stylesheet of these pages: the SPA's look (src/theme/tokens.ts: brand and neutral colours, Inter
 * stack, 12 px cards, the logo mark of src/components/logo.tsx); the CSP allows no inline style.
 */
export const PAGES_CSS_PATH = '/api/oidc-pages/pages.css';
export const PAGES_CSS = `*{box-sizing:border-box}
body{margin:0;min-height:100vh;display:flex;flex-direction:column;align-items:center;justify-content:center;gap:24px;padding:32px 16px;background:#f8fafc;color:#0f172a;font:14px/1.5 'Inter',system-ui,-apple-system,'Segoe UI',Roboto,'Helvetica Neue',Arial,sans-serif}
header{display:flex;align-items:center;gap:8px;font-weight:700;font-size:1.125rem}
.mark{display:inline-flex;align-items:center;justify-content:center;width:32px;height:32px;border-radius:8px;background:#1d4ed8;color:#fff}
.mark svg{width:18px;height:18px}
main{background:#fff;border:1px solid #e2e8f0;border-radius:12px;box-shadow:0 1px 2px rgba(15,23,42,.06);padding:32px;max-width:440px;width:100%}
h1{font-size:1.25rem;line-height:1.75rem;font-weight:600;margin:0 0 8px}p{margin:0 0 16px;color:#475569}
details{margin-top:16px;font-size:.75rem;color:#64748b}summary{cursor:pointer}dl{margin:8px 0 0}dt{font-weight:600}dd{margin:0 0 6px;word-break:break-all}
.actions{display:flex;gap:12px;flex-wrap:wrap;margin-top:24px}
a.button,button{display:inline-flex;align-items:center;height:40px;padding:0 16px;border-radius:6px;border:1px solid #cbd5e1;background:#fff;color:#0f172a;font:inherit;font-weight:500;text-decoration:none;cursor:pointer}
a.button:hover,button:hover{background:#f1f5f9}
a.button.primary,button[value=yes]{background:#1d4ed8;border-color:#1d4ed8;color:#fff}
a.button.primary:hover,button[value=yes]:hover{background:#1e40af}
a:focus-visible,button:focus-visible{outline:2px solid #3b82f6;outline-offset:2px}`;

export const pageLanguage = (acceptLanguage: string | undefined): Language => negotiateLanguage(undefined, acceptLanguage);

const LOCK = '<svg viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true"><rect x="3" y="11" width="18" height="11" rx="2"/><path d="M7 11V7a5 5 0 0 1 10 0v4"/></svg>';

const layout = (lang: Language, title: string, body: string, script?: string): string => `<!DOCTYPE html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)} · IAM</title>
<link rel="stylesheet" href="${PAGES_CSS_PATH}">
</head>
<body>
<header><span class="mark">${LOCK}</span><span>IAM</span></header>
<main>
${body}
</main>
${script ? `<script src="${script}"></script>` : ''}
</body>
</html>`;

/** What the error page knows besides the provider's `out` (error, error_description, state, iss). */
export interface ErrorPageContext {
  /** APP_URL: the links go to its sign-in page. */
  appUrl: string;
  /** The origin of the redirect_uri the request named, when it had one. */
  redirectOrigin?: string | undefined;
  /** IAM_DEV_ORIGINS (development only): where a developer signs in; APP_URL serves no SPA then (issue 29). */
  devOrigins?: readonly string[];
}

/** Error codes with their own explanation (server/i18n/messages/oidc-pages.ts `oidc.error.<code>`); others get the generic one. */
const EXPLAINED = new Set(['invalid_redirect_uri', 'invalid_client', 'access_denied', 'unauthorized_client', 'invalid_request']);

/**
 * The provider's error page: what happened and what to do, in the visitor's language, with the technical details
 * folded away (the protocol's own words, marked as English data: `translate="no" lang="en"`). A redirect URI on another origin than APP_URL (the app opened under another address) says where
 * to open it.
 */
export function errorPage(lang: Language, out: Record<string, unknown>, page: ErrorPageContext): string {
  const t = (c: string, values?: Record<string, string>) => translate(lang, c, values);
  const code = typeof out.error === 'string' ? out.error : '';
  const rows = Object.entries(out)
    .map(([k, v]) => `<dt>${esc(k)}</dt><dd>${esc(v)}</dd>`)
    .join('');
  const appOrigin = URL.parse(page.appUrl)?.origin ?? page.appUrl;
  const elsewhere = code === 'invalid_redirect_uri' && page.redirectOrigin !== undefined && page.redirectOrigin !== appOrigin;
  // in development the SPA is on the dev server (IAM_DEV_ORIGINS), not on APP_URL: send the developer there, and say
  // how to make the address they used work (the dev server on another port than dev:api expects)
  const devOrigin = page.devOrigins?.[0];
  const signInBase = elsewhere && devOrigin ? devOrigin : page.appUrl;
  const port = URL.parse(page.redirectOrigin ?? '')?.port ?? '';
  const openWhere = devOrigin
    ? t('oidc.error.open_dev_origin', { dev_origin: devOrigin, port: port || '…' })
    : t('oidc.error.open_app_url', { app_url: page.appUrl });
  const text = elsewhere
    ? `<p>${esc(t('oidc.error.other_address', { origin: page.redirectOrigin ?? '' }))}</p><p>${esc(openWhere)}</p>`
    : `<p>${esc(t(EXPLAINED.has(code) ? `oidc.error.${code}` : 'oidc.error.generic'))}</p>`;
  return layout(
    lang,
    t('oidc.error_title'),
    `<h1>${esc(t('oidc.error_heading'))}</h1>
${text}
<div class="actions"><a class="button primary" id="error-sign-in" href="${esc(signInBase)}/login">${esc(elsewhere ? t('oidc.error.open_sign_in') : t('oidc.back_to_sign_in'))}</a><a class="button" href="${esc(signInBase)}/">${esc(t('oidc.home'))}</a></div>
<details><summary>${esc(t('oidc.error_details'))}</summary><dl translate="no" lang="en">${rows}</dl></details>`,
  );
}

/**
 * `form` is the provider's own `<form id="op.logoutForm">` with the xsrf field. With a valid
 * id_token_hint (the relying party asked for the logout) the form confirms itself; otherwise the
 * person is asked.
 */
export function logoutPage(lang: Language, form: string, host: string, autoConfirm: boolean): string {
  const t = (c: string) => translate(lang, c, { host });
  return layout(
    lang,
    t('oidc.logout_title'),
    `<h1>${esc(t('oidc.logout_question'))}</h1>
<p>${esc(t('oidc.logout_text'))}</p>
${form}
<div class="actions"><button autofocus type="submit" form="op.logoutForm" value="yes" name="logout" id="op.logoutYes">${esc(t('oidc.logout_yes'))}</button>
<button type="submit" form="op.logoutForm">${esc(t('oidc.logout_no'))}</button></div>`,
    autoConfirm ? LOGOUT_SCRIPT_PATH : undefined,
  );
}

export function postLogoutPage(lang: Language, appUrl: string): string {
  const t = (c: string) => translate(lang, c);
  return layout(
    lang,
    t('oidc.signed_out_title'),
    `<h1>${esc(t('oidc.signed_out_title'))}</h1><p>${esc(t('oidc.signed_out_text'))}</p><div class="actions"><a class="button primary" href="${esc(appUrl)}/login">${esc(t('oidc.sign_in_again'))}</a></div>`,
  );
}

/** Why a sign-in to an app was refused: no role the app accepts, or no second factor where the app requires one. */
export type DeniedReason = 'no_role' | 'mfa_missing' | 'mfa_sso';

/**
 * The person signed in but holds none of the app's allowed roles (`no_role`), or the app asked for a sign-in with two
 * factors the sign-in could not reach: the account has no second factor (`mfa_missing`: the page links to the profile,
 * where it is turned on) or the sign-in came through an upstream provider (`mfa_sso`). `continueUrl` resumes the
 * authorization, which delivers the error to the app (so the app learns the outcome); `homeUrl` is the product's portal.
 */
export function deniedPage(lang: Language, appName: string, continueUrl: string, homeUrl: string, reason: DeniedReason = 'no_role'): string {
  const t = (c: string) => translate(lang, c, { app: appName });
  const key = reason === 'no_role' ? 'oidc.denied' : `oidc.${reason}`;
  const profile = reason === 'mfa_missing' ? `<a class="button" id="denied-profile" href="${esc(new URL('profile', homeUrl).href)}">${esc(t('oidc.mfa_missing_set_up'))}</a>` : '';
  return layout(
    lang,
    t(`${key}_title`),
    `<h1>${esc(t(`${key}_heading`))}</h1>
<p>${esc(t(`${key}_text`))}</p>
<div class="actions"><a class="button primary" id="denied-continue" href="${esc(continueUrl)}">${esc(t('oidc.denied_continue'))}</a>${profile}<a class="button" id="denied-home" href="${esc(homeUrl)}">${esc(t('oidc.denied_home'))}</a></div>`,
  );
}

/**
 * The server is at its sign-in admission limit (server/lib/admission.ts): a 503 the browser shows in the product's
 * look, with a button that tries the same request again (the answer also carries Retry-After).
 */
export function busyPage(lang: Language, retryUrl: string, retryAfterSeconds: number): string {
  const t = (c: string) => translate(lang, c, { seconds: retryAfterSeconds });
  return layout(
    lang,
    t('oidc.busy_title'),
    `<h1>${esc(t('oidc.busy_heading'))}</h1>
<p>${esc(t('oidc.busy_text'))}</p>
<div class="actions"><a class="button primary" id="busy-retry" href="${esc(retryUrl)}">${esc(t('oidc.busy_retry'))}</a></div>`,
  );
}
