import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { loadConfig } from '../../server/config';
import { createMailer } from '../../server/services/mail';
import { renderMail } from '../../server/services/mail-templates';
import { startSmtp } from '../helpers/smtp';

const log = pino({ level: 'silent' });

describe('mail', () => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  beforeAll(async () => {
    smtp = await startSmtp();
  });
  afterAll(async () => {
    await smtp.close();
  });

  it('delivers through SMTP_URL in the recipient language with the link intact', async () => {
    const config = loadConfig({ SMTP_URL: smtp.url, IAM_DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'iam-mail-')) });
    const mailer = createMailer(config, log);
    const link = 'http://localhost:3000/verify/user?url=' + encodeURIComponent('http://localhost:3000/api/user/verify-link?token=abc&signature=' + 'x'.repeat(80));
    await mailer.send({ to: 'Anna@Example.com', template: 'invitation', locale: 'de', params: { name: 'Anna', link } });
    const mail = await smtp.waitFor('anna@example.com');
    expect(mail.subject).toBe('Einladung zu IAM');
    expect(mail.links).toContain(link);
    mailer.close();
  });

  it('writes .eml files to the outbox without SMTP_URL', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'iam-mail-'));
    const mailer = createMailer(loadConfig({ IAM_DATA_DIR: dataDir, MAIL_FROM: 'Acme IAM <iam@acme.test>' }), log);
    await mailer.send({ to: 'bob@example.com', template: 'password_reset', locale: 'fr', params: { name: 'Bob', link: 'http://localhost:3000/reset-password?url=x' } });
    const files = readdirSync(path.join(dataDir, 'outbox'));
    expect(files).toHaveLength(1);
    const eml = readFileSync(path.join(dataDir, 'outbox', files[0]!), 'utf8');
    expect(eml).toContain('To: bob@example.com');
    expect(eml).toContain('From: Acme IAM <iam@acme.test>');
    expect(eml).toMatch(/Subject: .*R=C3=A9initialiser|Subject: =\?UTF-8\?/);
  });

  it('has every template in en, de, fr and it, escaping HTML', () => {
    for (const t of ['invitation', 'admin_invitation', 'password_reset', 'password_changed', 'setup'] as const) {
      const subjects = new Set((['en', 'de', 'fr', 'it'] as const).map((l) => renderMail(t, l, { name: 'X' }).subject));
      expect(subjects.size).toBe(4);
    }
    expect(renderMail('invitation', 'en', { name: '<script>', link: 'http://x/"a' }).html).not.toContain('<script>');
  });
});
