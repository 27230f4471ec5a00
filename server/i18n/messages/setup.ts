import type { DomainMessages } from '../index';

const messages: DomainMessages = {
  en: { invalid_link: 'This link is invalid or has expired', setup_done: 'The product is already set up' },
  de: { invalid_link: 'Dieser Link ist ungültig oder abgelaufen', setup_done: 'Das Produkt ist bereits eingerichtet' },
  fr: { invalid_link: 'Ce lien est invalide ou a expiré', setup_done: 'Le produit est déjà configuré' },
  it: { invalid_link: 'Questo link non è valido o è scaduto', setup_done: 'Il prodotto è già configurato' },
};
export default messages;
