/**
 * The provider's own HTML pages, CSP-friendly: no inline script, no inline style, no external fonts.
 * (The provider's auto-submitting form_post page adds its script hash to our CSP itself.)
 */
const esc = (v: unknown): string =>
  String(v ?? '').replace(/[&<>"'`=/]/g, (c) => `&#${c.charCodeAt(0)};`);

const layout = (title: string, body: string): string => `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
</head>
<body>
<main>
${body}
</main>
</body>
</html>`;

export function errorPage(out: Record<string, unknown>): string {
  const rows = Object.entries(out)
    .map(([k, v]) => `<dt>${esc(k)}</dt><dd>${esc(v)}</dd>`)
    .join('');
  return layout('Sign-in error', `<h1>Something went wrong</h1><dl>${rows}</dl><p><a href="/">Home</a></p>`);
}

/** `form` is the provider's own `<form id="op.logoutForm">` with the xsrf field. */
export function logoutPage(form: string, host: string): string {
  return layout(
    'Sign out',
    `<h1>Do you want to sign out from ${esc(host)}?</h1>
${form}
<button autofocus type="submit" form="op.logoutForm" value="yes" name="logout">Yes, sign me out</button>
<button type="submit" form="op.logoutForm">No, stay signed in</button>`,
  );
}

export function postLogoutPage(appUrl: string): string {
  return layout('Signed out', `<h1>You are signed out</h1><p><a href="${esc(appUrl)}/login">Sign in again</a></p>`);
}
