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

/** Same-origin stylesheet of these pages (the product's look; the CSP allows no inline style). */
export const PAGES_CSS_PATH = '/api/oidc-pages/pages.css';
export const PAGES_CSS = `body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;background:#f4f5f7;color:#1f2430;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{background:#fff;border:1px solid #e2e5ea;border-radius:12px;box-shadow:0 1px 3px rgba(16,24,40,.08);padding:32px;max-width:440px;width:calc(100% - 32px)}
h1{font-size:1.25rem;margin:0 0 12px}p{margin:0 0 16px;color:#4a5160}dl{font-size:.875rem;color:#4a5160}dt{font-weight:600}dd{margin:0 0 8px}
.actions{display:flex;gap:12px;flex-wrap:wrap;margin-top:24px}
a.button,button{display:inline-block;padding:8px 16px;border-radius:8px;border:1px solid #c9ced6;background:#fff;color:#1f2430;font:inherit;text-decoration:none;cursor:pointer}
a.button.primary,button[value=yes]{background:#2b59c3;border-color:#2b59c3;color:#fff}`;

export const pageLanguage = (acceptLanguage: string | undefined): Language => negotiateLanguage(undefined, acceptLanguage);

const layout = (lang: Language, title: string, body: string, script?: string): string => `<!DOCTYPE html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<link rel="stylesheet" href="${PAGES_CSS_PATH}">
</head>
<body>
<main>
${body}
</main>
${script ? `<script src="${script}"></script>` : ''}
</body>
</html>`;

export function errorPage(lang: Language, out: Record<string, unknown>): string {
  const rows = Object.entries(out)
    .map(([k, v]) => `<dt>${esc(k)}</dt><dd>${esc(v)}</dd>`)
    .join('');
  const t = (c: string) => translate(lang, c);
  return layout(lang, t('oidc.error_title'), `<h1>${esc(t('oidc.error_heading'))}</h1><dl>${rows}</dl><p><a href="/">${esc(t('oidc.home'))}</a></p>`);
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
${form}
<button autofocus type="submit" form="op.logoutForm" value="yes" name="logout" id="op.logoutYes">${esc(t('oidc.logout_yes'))}</button>
<button type="submit" form="op.logoutForm">${esc(t('oidc.logout_no'))}</button>`,
    autoConfirm ? LOGOUT_SCRIPT_PATH : undefined,
  );
}

export function postLogoutPage(lang: Language, appUrl: string): string {
  const t = (c: string) => translate(lang, c);
  return layout(lang, t('oidc.signed_out_title'), `<h1>${esc(t('oidc.signed_out_title'))}</h1><p><a href="${esc(appUrl)}/login">${esc(t('oidc.sign_in_again'))}</a></p>`);
}

/**
 * The person signed in but holds none of the app's allowed roles. `continueUrl` resumes the
 * authorization, which delivers access_denied to the app (so the app learns the outcome); `homeUrl` is
 * the product's portal.
 */
export function deniedPage(lang: Language, appName: string, continueUrl: string, homeUrl: string): string {
  const t = (c: string) => translate(lang, c, { app: appName });
  return layout(
    lang,
    t('oidc.denied_title'),
    `<h1>${esc(t('oidc.denied_heading'))}</h1>
<p>${esc(t('oidc.denied_text'))}</p>
<div class="actions"><a class="button primary" id="denied-continue" href="${esc(continueUrl)}">${esc(t('oidc.denied_continue'))}</a><a class="button" id="denied-home" href="${esc(homeUrl)}">${esc(t('oidc.denied_home'))}</a></div>`,
  );
}
