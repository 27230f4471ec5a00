import type { DomainMessages } from '../index';

const messages: DomainMessages = {
  en: {
    'oidc.error_title': 'Sign-in error',
    'oidc.error_heading': 'Something went wrong',
    'oidc.home': 'Home',
    'oidc.logout_title': 'Sign out',
    'oidc.logout_question': 'Do you want to sign out from {host}?',
    'oidc.logout_yes': 'Yes, sign me out',
    'oidc.logout_no': 'No, stay signed in',
    'oidc.signed_out_title': 'You are signed out',
    'oidc.sign_in_again': 'Sign in again',
  },
  de: {
    'oidc.error_title': 'Anmeldefehler',
    'oidc.error_heading': 'Etwas ist schiefgelaufen',
    'oidc.home': 'Startseite',
    'oidc.logout_title': 'Abmelden',
    'oidc.logout_question': 'Möchten Sie sich von {host} abmelden?',
    'oidc.logout_yes': 'Ja, abmelden',
    'oidc.logout_no': 'Nein, angemeldet bleiben',
    'oidc.signed_out_title': 'Sie sind abgemeldet',
    'oidc.sign_in_again': 'Erneut anmelden',
  },
  fr: {
    'oidc.error_title': 'Erreur de connexion',
    'oidc.error_heading': "Une erreur s'est produite",
    'oidc.home': 'Accueil',
    'oidc.logout_title': 'Déconnexion',
    'oidc.logout_question': 'Voulez-vous vous déconnecter de {host} ?',
    'oidc.logout_yes': 'Oui, me déconnecter',
    'oidc.logout_no': 'Non, rester connecté',
    'oidc.signed_out_title': 'Vous êtes déconnecté',
    'oidc.sign_in_again': 'Se reconnecter',
  },
  it: {
    'oidc.error_title': 'Errore di accesso',
    'oidc.error_heading': 'Qualcosa è andato storto',
    'oidc.home': 'Home',
    'oidc.logout_title': 'Esci',
    'oidc.logout_question': 'Vuoi uscire da {host}?',
    'oidc.logout_yes': 'Sì, esci',
    'oidc.logout_no': 'No, resta connesso',
    'oidc.signed_out_title': 'Sei uscito',
    'oidc.sign_in_again': 'Accedi di nuovo',
  },
};
export default messages;
