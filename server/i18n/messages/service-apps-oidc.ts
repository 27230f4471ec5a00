import type { DomainMessages } from '../index';

/** Per-app OIDC settings of service apps (PKCE opt-out, client_credentials, redirect and post-logout URIs). */
const messages: DomainMessages = {
  en: {
    'validation.confidential_only': 'Only confidential service apps (with a client secret) can use this setting',
    'validation.uri_fragment': 'must not contain a fragment (#)',
    'validation.uri_wildcard': 'must not contain a wildcard (*): redirect URIs are compared exactly',
    'validation.uri_duplicate': 'is listed twice',
    'validation.uri_conflict': 'URL + Path differ from the first redirect URI',
  },
  de: {
    'validation.confidential_only': 'Nur vertrauliche Service-Apps (mit Client-Secret) können diese Einstellung verwenden',
    'validation.uri_fragment': 'darf kein Fragment (#) enthalten',
    'validation.uri_wildcard': 'darf keinen Platzhalter (*) enthalten: Weiterleitungs-URIs werden exakt verglichen',
    'validation.uri_duplicate': 'ist doppelt aufgeführt',
    'validation.uri_conflict': 'URL + Pfad weichen von der ersten Weiterleitungs-URI ab',
  },
  fr: {
    'validation.confidential_only': 'Seules les applications de service confidentielles (avec secret client) peuvent utiliser ce paramètre',
    'validation.uri_fragment': 'ne doit pas contenir de fragment (#)',
    'validation.uri_wildcard': 'ne doit pas contenir de caractère générique (*) : les URI de redirection sont comparées exactement',
    'validation.uri_duplicate': 'figure deux fois dans la liste',
    'validation.uri_conflict': 'URL + chemin diffèrent de la première URI de redirection',
  },
  it: {
    'validation.confidential_only': 'Solo le app di servizio riservate (con client secret) possono usare questa impostazione',
    'validation.uri_fragment': 'non deve contenere un frammento (#)',
    'validation.uri_wildcard': 'non deve contenere caratteri jolly (*): gli URI di reindirizzamento sono confrontati esattamente',
    'validation.uri_duplicate': "compare due volte nell'elenco",
    'validation.uri_conflict': 'URL + percorso differiscono dal primo URI di reindirizzamento',
  },
};
export default messages;
