/**
 * The link forms the mails and the server use today, taken from the server's own functions (so the QA
 * document never shows a form nobody sends): invitation and reset pages with the signed API link in `url`,
 * and the first administrator's setup link.
 */
import { setupPageUrl } from '../server/services/bootstrap';
import { invitationPageUrl } from '../server/services/invitations';
import { resetPageUrl } from '../server/services/password-reset';
import { LINK_PATHS } from '../server/services/signed-links';

const APP = '$APP_URL';
const deps = { config: { appUrl: APP } } as Parameters<typeof invitationPageUrl>[0];
const api = (path: string) => `${APP}${path}?token=…&expires=…&signature=…`;
/** The page link with the (url-encoded) signed API link shown as `<signed link>`. */
const page = (url: string, apiLink: string) => url.replace(encodeURIComponent(apiLink), '<signed link>');

export interface LinkForm {
  mail: string;
  link: string;
  signed: string | null;
}

export function linkForms(): LinkForm[] {
  return [
    { mail: 'user invitation', link: page(invitationPageUrl(deps, 'user', 'X'), 'X'), signed: api(LINK_PATHS.invitation.user) },
    { mail: 'administrator invitation', link: page(invitationPageUrl(deps, 'admin', 'X'), 'X'), signed: api(LINK_PATHS.invitation.admin) },
    { mail: 'user password reset', link: page(resetPageUrl(deps, 'user', 'X'), 'X'), signed: api(LINK_PATHS.reset.user) },
    { mail: 'administrator password reset', link: page(resetPageUrl(deps, 'admin', 'X'), 'X'), signed: api(LINK_PATHS.reset.admin) },
    { mail: 'first administrator (printed at first start, no mail)', link: setupPageUrl(APP, '<one-time token>'), signed: null },
  ];
}

export function linkFormsMarkdown(): string {
  const lines = ['Links in use (from the server code: server/services/invitations.ts, password-reset.ts, bootstrap.ts):', ''];
  for (const form of linkForms()) lines.push(`- ${form.mail}: \`${form.link}\`${form.signed ? ` — \`<signed link>\` = \`${form.signed}\`` : ''}`);
  return lines.join('\n');
}
