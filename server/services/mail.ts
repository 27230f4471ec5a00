import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from '../config';
import { FALLBACK_LANGUAGE, isLanguage } from '../i18n/index';
import { renderMail, type MailParams, type MailTemplate, type RenderedMail } from './mail-templates';

export interface MailMessage {
  to: string;
  template: MailTemplate;
  locale: string;
  params: MailParams;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

interface Envelope extends RenderedMail {
  from: string;
  to: string;
}

/** Where rendered mails go: an SMTP server, or .eml files in a directory. */
interface Channel {
  deliver(mail: Envelope, message: MailMessage): Promise<void>;
  close(): void;
}

/**
 * nodemailer and its transport are loaded with the first mail, not at start (a few MB of resident memory an
 * idle server does not need); `close()` before that has nothing to close.
 */
function lazyTransport(create: (nodemailer: typeof import('nodemailer')) => Transporter): { get(): Promise<Transporter>; close(): void } {
  let transport: Promise<Transporter> | undefined;
  let closed = false;
  return {
    get: () => (transport ??= import('nodemailer').then((m) => create(m.default))),
    close() {
      if (closed) return;
      closed = true;
      void transport?.then((t) => t.close());
    },
  };
}

function smtpChannel(url: string, log: FastifyBaseLogger): Channel {
  const transport = lazyTransport((nodemailer) => nodemailer.createTransport(url));
  return {
    async deliver(mail, m) {
      await (await transport.get()).sendMail(mail);
      log.info({ template: m.template, to: m.to }, 'mail sent');
    },
    close: () => transport.close(),
  };
}

function outboxChannel(outbox: string, log: FastifyBaseLogger): Channel {
  const transport = lazyTransport((nodemailer) => nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }));
  return {
    async deliver(mail, m) {
      const info = await (await transport.get()).sendMail(mail);
      mkdirSync(outbox, { recursive: true });
      const file = path.join(outbox, `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}.eml`);
      writeFileSync(file, info.message as Buffer, { mode: 0o600 });
      log.info({ template: m.template, to: m.to, file, link: m.params.link }, 'mail written to outbox');
    },
    close: () => transport.close(),
  };
}

/**
 * Renders a message in the recipient's language (en when unknown) and sends it from MAIL_FROM: through SMTP when
 * SMTP_URL is set, else as .eml files in `$IAM_DATA_DIR/outbox/` with the link logged.
 */
export function createMailer(config: Pick<AppConfig, 'smtpUrl' | 'dataDir' | 'mailFrom'>, log: FastifyBaseLogger): Mailer {
  const channel = config.smtpUrl ? smtpChannel(config.smtpUrl, log) : outboxChannel(path.join(config.dataDir, 'outbox'), log);
  return {
    async send(m) {
      const r = renderMail(m.template, isLanguage(m.locale) ? m.locale : FALLBACK_LANGUAGE, m.params);
      await channel.deliver({ from: config.mailFrom, to: m.to, ...r }, m);
    },
    close: () => channel.close(),
  };
}
