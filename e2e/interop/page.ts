/**
 * The one HTML shape every Node-served relying party of the interop suite renders, so the spec reads
 * them alike: `#state` (signed-in | signed-out | error), `#error`, `#id-claims`, `#userinfo`,
 * `#refreshes` and `#at-hash` (a short hash of the current access token, to see that a refresh replaced it).
 */
import { createHash } from 'node:crypto';

const esc = (v: string): string => v.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export const tokenTag = (token: string | undefined): string => (token ? createHash('sha256').update(token).digest('hex').slice(0, 12) : '');

export interface RpView {
  title: string;
  state: 'signed-in' | 'signed-out' | 'error';
  error?: string | undefined;
  idClaims?: unknown;
  userinfo?: unknown;
  refreshes?: number;
  accessToken?: string | undefined;
}

export function rpPage(v: RpView): string {
  const parts = [`<h1>${esc(v.title)}</h1>`, `<p id="state">${v.state}</p>`];
  if (v.error) parts.push(`<p id="error">${esc(v.error)}</p>`);
  if (v.state === 'signed-in') {
    parts.push(
      `<pre id="id-claims">${esc(JSON.stringify(v.idClaims ?? null, null, 2))}</pre>`,
      `<pre id="userinfo">${esc(JSON.stringify(v.userinfo ?? null, null, 2))}</pre>`,
      `<p>Refreshes: <span id="refreshes">${v.refreshes ?? 0}</span>, access token <span id="at-hash">${tokenTag(v.accessToken)}</span></p>`,
      '<p><a href="/refresh">Refresh tokens</a> <a href="/logout">Sign out</a></p>',
    );
  } else {
    parts.push('<p><a href="/login">Sign in</a></p>');
  }
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${esc(v.title)}</title></head><body><main>${parts.join('\n')}</main></body></html>`;
}
