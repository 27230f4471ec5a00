import type { Language } from '../i18n/index';

export type MailTemplate = 'invitation' | 'admin_invitation' | 'password_reset' | 'password_changed' | 'account_inactive_sign_in' | 'setup' | 'api_key_generated' | 'api_key_revoked' | 'new_device_sign_in';

/** What a template is filled with (`{name}`, `{link}`, `{expires_hours}` (default 72), `{key_prefix}`, `{device}`, `{time}`, `{ip}`). */
export interface MailParams {
  name?: string;
  link?: string;
  expires_hours?: number;
  key_prefix?: string;
  /** new_device_sign_in: "Firefox on Windows", the time (with its zone) and the address */
  device?: string;
  time?: string;
  ip?: string;
}
type Params = MailParams & { product?: string };

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

/** One template in one language: the subject, the text around the link, and the link's label when there is one. */
interface TemplateText {
  subject: string;
  intro: string;
  action?: string;
  outro: string;
}

const T: Record<MailTemplate, Record<Language, TemplateText>> = {
  invitation: {
    en: { subject: 'You are invited to {product}', intro: 'Hello {name}, an administrator created an account for you.', action: 'Finish setting up your account', outro: 'The link is valid for {expires_hours} hours. If you did not expect this e-mail, you can ignore it.' },
    de: { subject: 'Einladung zu {product}', intro: 'Hallo {name}, ein Administrator hat ein Konto für Sie angelegt.', action: 'Kontoeinrichtung abschließen', outro: 'Der Link ist {expires_hours} Stunden gültig. Wenn Sie diese E-Mail nicht erwartet haben, können Sie sie ignorieren.' },
    fr: { subject: 'Invitation à {product}', intro: 'Bonjour {name}, un administrateur a créé un compte pour vous.', action: 'Terminer la configuration du compte', outro: "Le lien est valable {expires_hours} heures. Si vous n'attendiez pas cet e-mail, ignorez-le." },
    it: { subject: 'Invito a {product}', intro: 'Ciao {name}, un amministratore ha creato un account per te.', action: "Completa la configurazione dell'account", outro: 'Il link è valido per {expires_hours} ore. Se non ti aspettavi questa e-mail, puoi ignorarla.' },
  },
  admin_invitation: {
    en: { subject: 'You are invited to administer {product}', intro: 'Hello {name}, you were added as an administrator.', action: 'Set your password', outro: 'The link is valid for {expires_hours} hours.' },
    de: { subject: 'Einladung zur Verwaltung von {product}', intro: 'Hallo {name}, Sie wurden als Administrator hinzugefügt.', action: 'Passwort festlegen', outro: 'Der Link ist {expires_hours} Stunden gültig.' },
    fr: { subject: 'Invitation à administrer {product}', intro: 'Bonjour {name}, vous avez été ajouté comme administrateur.', action: 'Définir votre mot de passe', outro: 'Le lien est valable {expires_hours} heures.' },
    it: { subject: 'Invito ad amministrare {product}', intro: 'Ciao {name}, sei stato aggiunto come amministratore.', action: 'Imposta la password', outro: 'Il link è valido per {expires_hours} ore.' },
  },
  password_reset: {
    en: { subject: 'Reset your {product} password', intro: 'Hello {name}, someone asked to reset your password.', action: 'Choose a new password', outro: 'The link works once and expires in {expires_hours} hours. If it was not you, ignore this e-mail.' },
    de: { subject: 'Passwort für {product} zurücksetzen', intro: 'Hallo {name}, es wurde angefordert, Ihr Passwort zurückzusetzen.', action: 'Neues Passwort wählen', outro: 'Der Link funktioniert einmal und läuft in {expires_hours} Stunden ab. Falls Sie das nicht waren, ignorieren Sie diese E-Mail.' },
    fr: { subject: 'Réinitialiser votre mot de passe {product}', intro: 'Bonjour {name}, une réinitialisation de votre mot de passe a été demandée.', action: 'Choisir un nouveau mot de passe', outro: "Le lien fonctionne une fois et expire dans {expires_hours} heures. Si ce n'était pas vous, ignorez cet e-mail." },
    it: { subject: 'Reimposta la password di {product}', intro: 'Ciao {name}, è stato richiesto il ripristino della tua password.', action: 'Scegli una nuova password', outro: 'Il link funziona una sola volta e scade tra {expires_hours} ore. Se non sei stato tu, ignora questa e-mail.' },
  },
  password_changed: {
    en: { subject: 'Your {product} password was changed', intro: 'Hello {name}, your password was just changed.', outro: 'If it was not you, contact your administrator at once.' },
    de: { subject: 'Ihr Passwort für {product} wurde geändert', intro: 'Hallo {name}, Ihr Passwort wurde soeben geändert.', outro: 'Falls Sie das nicht waren, wenden Sie sich sofort an Ihren Administrator.' },
    fr: { subject: 'Votre mot de passe {product} a été modifié', intro: 'Bonjour {name}, votre mot de passe vient d’être modifié.', outro: "Si ce n'était pas vous, contactez immédiatement votre administrateur." },
    it: { subject: 'La password di {product} è stata modificata', intro: 'Ciao {name}, la tua password è stata appena modificata.', outro: "Se non sei stato tu, contatta subito l'amministratore." },
  },
  account_inactive_sign_in: {
    en: { subject: 'Sign-in to {product} refused: your account is inactive', intro: 'Hello {name}, someone just signed in to your account with the right password, but the account is inactive, so the sign-in page answered that the credentials are not valid.', outro: 'If it was you, ask your administrator to reactivate the account. If it was not you, change your password once the account is active again.' },
    de: { subject: 'Anmeldung bei {product} abgelehnt: Ihr Konto ist inaktiv', intro: 'Hallo {name}, soeben hat sich jemand mit dem richtigen Passwort bei Ihrem Konto angemeldet. Das Konto ist jedoch inaktiv, daher meldete die Anmeldeseite ungültige Zugangsdaten.', outro: 'Wenn Sie das waren, bitten Sie Ihren Administrator, das Konto wieder zu aktivieren. Wenn nicht, ändern Sie Ihr Passwort, sobald das Konto wieder aktiv ist.' },
    fr: { subject: 'Connexion à {product} refusée : votre compte est inactif', intro: "Bonjour {name}, quelqu'un vient de se connecter à votre compte avec le bon mot de passe, mais le compte est inactif : la page de connexion a donc répondu que les identifiants ne sont pas valides.", outro: "Si c'était vous, demandez à votre administrateur de réactiver le compte. Sinon, changez votre mot de passe dès que le compte sera de nouveau actif." },
    it: { subject: 'Accesso a {product} rifiutato: il tuo account non è attivo', intro: "Ciao {name}, qualcuno ha appena effettuato l'accesso al tuo account con la password corretta, ma l'account non è attivo, quindi la pagina di accesso ha risposto che le credenziali non sono valide.", outro: "Se eri tu, chiedi all'amministratore di riattivare l'account. Se non eri tu, cambia la password appena l'account sarà di nuovo attivo." },
  },
  setup: {
    en: { subject: 'Set up {product}', intro: 'Create the first administrator account.', action: 'Create the administrator', outro: 'The link works once and expires in {expires_hours} hours.' },
    de: { subject: '{product} einrichten', intro: 'Legen Sie das erste Administratorkonto an.', action: 'Administrator anlegen', outro: 'Der Link funktioniert einmal und läuft in {expires_hours} Stunden ab.' },
    fr: { subject: 'Configurer {product}', intro: 'Créez le premier compte administrateur.', action: "Créer l'administrateur", outro: 'Le lien fonctionne une fois et expire dans {expires_hours} heures.' },
    it: { subject: 'Configura {product}', intro: 'Crea il primo account amministratore.', action: "Crea l'amministratore", outro: 'Il link funziona una sola volta e scade tra {expires_hours} ore.' },
  },
  api_key_generated: {
    en: { subject: 'A new API key for your {product} account', intro: 'Hello {name}, an administrator generated a new API key (iam_{key_prefix}_…) for your account. Any previous key no longer works.', outro: 'If you did not expect this, contact your administrator at once.' },
    de: { subject: 'Neuer API-Schlüssel für Ihr {product}-Konto', intro: 'Hallo {name}, ein Administrator hat einen neuen API-Schlüssel (iam_{key_prefix}_…) für Ihr Konto erzeugt. Ein früherer Schlüssel funktioniert nicht mehr.', outro: 'Falls Sie das nicht erwartet haben, wenden Sie sich sofort an Ihren Administrator.' },
    fr: { subject: 'Nouvelle clé API pour votre compte {product}', intro: 'Bonjour {name}, un administrateur a généré une nouvelle clé API (iam_{key_prefix}_…) pour votre compte. Toute clé précédente ne fonctionne plus.', outro: "Si vous ne vous y attendiez pas, contactez immédiatement votre administrateur." },
    it: { subject: 'Nuova chiave API per il tuo account {product}', intro: 'Ciao {name}, un amministratore ha generato una nuova chiave API (iam_{key_prefix}_…) per il tuo account. Qualsiasi chiave precedente non funziona più.', outro: "Se non te lo aspettavi, contatta subito l'amministratore." },
  },
  api_key_revoked: {
    en: { subject: 'The API key of your {product} account was revoked', intro: 'Hello {name}, an administrator revoked the API key (iam_{key_prefix}_…) of your account. It no longer works.', outro: 'If you did not expect this, contact your administrator.' },
    de: { subject: 'Der API-Schlüssel Ihres {product}-Kontos wurde widerrufen', intro: 'Hallo {name}, ein Administrator hat den API-Schlüssel (iam_{key_prefix}_…) Ihres Kontos widerrufen. Er funktioniert nicht mehr.', outro: 'Falls Sie das nicht erwartet haben, wenden Sie sich an Ihren Administrator.' },
    fr: { subject: 'La clé API de votre compte {product} a été révoquée', intro: 'Bonjour {name}, un administrateur a révoqué la clé API (iam_{key_prefix}_…) de votre compte. Elle ne fonctionne plus.', outro: "Si vous ne vous y attendiez pas, contactez votre administrateur." },
    it: { subject: 'La chiave API del tuo account {product} è stata revocata', intro: 'Ciao {name}, un amministratore ha revocato la chiave API (iam_{key_prefix}_…) del tuo account. Non funziona più.', outro: "Se non te lo aspettavi, contatta l'amministratore." },
  },
  new_device_sign_in: {
    en: { subject: 'New sign-in to {product} from {device}', intro: 'Hello {name}, your account was just signed in to from a device it was not used on before: {device}, {time}, address {ip}.', action: 'See your sessions', outro: 'If it was you, there is nothing to do. If it was not, end that session in the list and change your password.' },
    de: { subject: 'Neue Anmeldung bei {product} mit {device}', intro: 'Hallo {name}, soeben hat sich jemand mit einem Gerät bei Ihrem Konto angemeldet, das dafür noch nie benutzt wurde: {device}, {time}, Adresse {ip}.', action: 'Ihre Sitzungen ansehen', outro: 'Wenn Sie das waren, ist nichts zu tun. Wenn nicht, beenden Sie diese Sitzung in der Liste und ändern Sie Ihr Passwort.' },
    fr: { subject: 'Nouvelle connexion à {product} depuis {device}', intro: "Bonjour {name}, une connexion à votre compte vient d'avoir lieu depuis un appareil jamais utilisé auparavant : {device}, {time}, adresse {ip}.", action: 'Voir vos sessions', outro: "Si c'était vous, il n'y a rien à faire. Sinon, terminez cette session dans la liste et changez votre mot de passe." },
    it: { subject: 'Nuovo accesso a {product} da {device}', intro: "Ciao {name}, è appena stato effettuato l'accesso al tuo account da un dispositivo mai usato prima: {device}, {time}, indirizzo {ip}.", action: 'Vedi le tue sessioni', outro: 'Se eri tu, non devi fare nulla. Altrimenti termina quella sessione nell’elenco e cambia la password.' },
  },
};

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

function fill(template: string, params: Params): string {
  return template.replace(/\{(\w+)\}/g, (_, k: string) => String((params as Record<string, unknown>)[k] ?? ''));
}

export function renderMail(template: MailTemplate, lang: Language, params: MailParams): RenderedMail {
  const t = T[template][lang] ?? T[template].en;
  const p: Params = { product: 'IAM', expires_hours: 72, ...params };
  const subject = fill(t.subject, p);
  const intro = fill(t.intro, p);
  const outro = fill(t.outro, p);
  const action = t.action ? fill(t.action, p) : undefined;
  const text = [intro, '', ...(action && p.link ? [`${action}:`, p.link, ''] : []), outro, ''].join('\n');
  const html = `<!doctype html><html lang="${lang}"><body style="font-family:sans-serif">
<p>${escapeHtml(intro)}</p>
${action && p.link ? `<p><a href="${escapeHtml(p.link)}">${escapeHtml(action)}</a></p><p style="font-size:12px;color:#555">${escapeHtml(p.link)}</p>` : ''}
<p>${escapeHtml(outro)}</p></body></html>`;
  return { subject, text, html };
}
