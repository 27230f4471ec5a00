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

export const pageLanguage = (acceptLanguage: string | undefined): Language => negotiateLanguage(undefined, acceptLanguage);

const layout = (lang: Language, title: string, body: string, script?: string): string => `<!DOCTYPE html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
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
