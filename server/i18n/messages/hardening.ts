import type { DomainMessages } from '../index';

/** Security hardening: API-key scope, immutable technical flag, common passwords, CSV encodings. */
const messages: DomainMessages = {
  en: {
    api_key_not_allowed: 'An API key cannot be used for this request; sign in instead',
    'validation.technical_immutable': 'The technical flag is fixed when the user is created',
    'validation.password_common': 'is too common or appears in breached password lists; choose another one',
  },
  de: {
    api_key_not_allowed: 'Ein API-Schlüssel kann für diese Anfrage nicht verwendet werden; bitte melden Sie sich an',
    'validation.technical_immutable': 'Die Eigenschaft „technisch“ wird beim Anlegen des Benutzers festgelegt und kann nicht geändert werden',
    'validation.password_common': 'ist zu verbreitet oder steht in Listen kompromittierter Passwörter; bitte wählen Sie ein anderes',
  },
  fr: {
    api_key_not_allowed: 'Une clé API ne peut pas être utilisée pour cette requête ; veuillez vous connecter',
    'validation.technical_immutable': "L'attribut « technique » est fixé à la création de l'utilisateur",
    'validation.password_common': 'est trop courant ou figure dans des listes de mots de passe divulgués ; choisissez-en un autre',
  },
  it: {
    api_key_not_allowed: 'Una chiave API non può essere usata per questa richiesta; effettua l’accesso',
    'validation.technical_immutable': "L'attributo «tecnico» viene fissato alla creazione dell'utente",
    'validation.password_common': 'è troppo comune o compare in elenchi di password violate; scegline un’altra',
  },
};
export default messages;
