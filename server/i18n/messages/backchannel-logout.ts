import type { DomainMessages } from '../index';

/** Back-channel logout settings of service apps (issue 31.1). */
const messages: DomainMessages = {
  en: {
    'validation.https_required': 'Use an https:// address (http:// only for localhost, 127.0.0.1 or ::1)',
  },
  de: {
    'validation.https_required': 'Verwenden Sie eine https://-Adresse (http:// nur für localhost, 127.0.0.1 oder ::1)',
  },
  fr: {
    'validation.https_required': 'Utilisez une adresse https:// (http:// uniquement pour localhost, 127.0.0.1 ou ::1)',
  },
  it: {
    'validation.https_required': 'Usa un indirizzo https:// (http:// solo per localhost, 127.0.0.1 o ::1)',
  },
};
export default messages;
