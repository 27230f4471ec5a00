import { SMTPServer } from 'smtp-server';
import PostalMime from 'postal-mime';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';

export interface ReceivedMail {
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string;
  /** every http(s) link in the text part */
  links: string[];
}

/** A real SMTP server on loopback that collects what it receives. */
export async function startSmtp(): Promise<{
  url: string;
  mails: ReceivedMail[];
  waitFor(to: string, opts?: { timeoutMs?: number; subject?: RegExp }): Promise<ReceivedMail>;
  close(): Promise<void>;
}> {
  const mails: ReceivedMail[] = [];
  const listeners = new Set<() => void>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', async () => {
        const parsed = await PostalMime.parse(Buffer.concat(chunks));
        const text = parsed.text ?? '';
        mails.push({
          to: (session.envelope.rcptTo ?? []).map((r) => r.address.toLowerCase()),
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          subject: parsed.subject ?? '',
          text,
          html: parsed.html ?? '',
          links: text.match(/https?:\/\/[^\s<>"]+/g) ?? [],
        });
        for (const l of listeners) l();
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    waitFor(to, opts = {}) {
      const match = () => mails.find((m) => m.to.includes(to.toLowerCase()) && (!opts.subject || opts.subject.test(m.subject)));
      return new Promise((resolve, reject) => {
        const found = match();
        if (found) return resolve(found);
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`no mail to ${to} within ${opts.timeoutMs ?? 5000} ms`));
        }, opts.timeoutMs ?? 5000);
        const check = () => {
          const m = match();
          if (m) {
            clearTimeout(timer);
            listeners.delete(check);
            resolve(m);
          }
        };
        listeners.add(check);
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The signed API link (`?url=`) inside a mail's link to the SPA page `page` (asserted to be that exact path). */
export function apiLinkOf(mail: ReceivedMail, page: string): string {
  const link = mail.links.find((l) => l.includes(page));
  expect(link, `a link to ${page} in ${mail.text}`).toBeDefined();
  const u = new URL(link ?? '');
  expect(u.pathname).toBe(page);
  const api = u.searchParams.get('url');
  expect(api).toBeTruthy();
  return api ?? '';
}
