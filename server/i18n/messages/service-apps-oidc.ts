import type { DomainMessages } from '../index';

/** Per-app OIDC settings of service apps (PKCE opt-out, client_credentials). */
const messages: DomainMessages = {
  en: {
    'validation.confidential_only': 'Only confidential service apps (with a client secret) can use this setting',
  },
  de: {
    'validation.confidential_only': 'Nur vertrauliche Service-Apps (mit Client-Secret) können diese Einstellung verwenden',
  },
  fr: {
    'validation.confidential_only': 'Seules les applications de service confidentielles (avec secret client) peuvent utiliser ce paramètre',
  },
  it: {
    'validation.confidential_only': 'Solo le app di servizio riservate (con client secret) possono usare questa impostazione',
  },
};
export default messages;
