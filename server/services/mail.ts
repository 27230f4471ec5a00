import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from '../config';
import { isLanguage, type Language } from '../i18n/index';
import { renderMail, type MailTemplate } from './mail-templates';

export interface MailMessage {
  to: string;
  template: MailTemplate;
  locale: string;
  params: { name?: string; link?: string; expires_hours?: number; key_prefix?: string };
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/** SMTP when SMTP_URL is set, else .eml files in `$IAM_DATA_DIR/outbox/` with the link logged. */
export function createMailer(config: AppConfig, log: FastifyBaseLogger): Mailer {
  if (config.smtpUrl) {
    const transport = nodemailer.createTransport(config.smtpUrl);
    return {
      async send(m) {
        const lang: Language = isLanguage(m.locale) ? m.locale : 'en';
        const r = renderMail(m.template, lang, m.params);
        await transport.sendMail({ from: config.mailFrom, to: m.to, subject: r.subject, text: r.text, html: r.html });
        log.info({ template: m.template, to: m.to }, 'mail sent');
      },
      close: () => transport.close(),
    };
  }
  const outbox = path.join(config.dataDir, 'outbox');
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(m) {
      const lang: Language = isLanguage(m.locale) ? m.locale : 'en';
      const r = renderMail(m.template, lang, m.params);
      const info = await transport.sendMail({ from: config.mailFrom, to: m.to, subject: r.subject, text: r.text, html: r.html });
      mkdirSync(outbox, { recursive: true });
      const file = path.join(outbox, `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}.eml`);
      writeFileSync(file, info.message as Buffer, { mode: 0o600 });
      log.info({ template: m.template, to: m.to, file, link: m.params.link }, 'mail written to outbox');
    },
    close: () => transport.close(),
  };
}
