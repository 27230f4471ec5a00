import { appendFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from '../config';

/** SMS provider adapters (docs/DESIGN.md §4): only the transport differs; codes, expiry and limits live in two-factor.ts. */
export interface SmsSender {
  send(to: string, body: string): Promise<void>;
}

/** `log` provider: one JSON line `{to, body, at}` per message in `$IAM_DATA_DIR/outbox/sms.log`, and a log line. */
export function logSmsSender(dataDir: string, log: FastifyBaseLogger): SmsSender {
  const outbox = path.join(dataDir, 'outbox');
  const file = path.join(outbox, 'sms.log');
  return {
    async send(to, body) {
      await mkdir(outbox, { recursive: true });
      await appendFile(file, JSON.stringify({ to, body, at: new Date().toISOString() }) + '\n', { mode: 0o600 });
      log.info({ to, file }, 'sms written to outbox');
    },
  };
}

/** Twilio-compatible REST: POST {base}/2010-04-01/Accounts/{sid}/Messages.json, basic auth, form To/From/Body. */
export function twilioSmsSender(twilio: AppConfig['twilio'], log: FastifyBaseLogger, timeoutMs = 10_000): SmsSender {
  const { accountSid, authToken, from, baseUrl } = twilio;
  if (!accountSid || !authToken || !from) throw new Error('twilio credentials missing');
  const endpoint = `${baseUrl.replace(/\/+$/, '')}/2010-04-01/Accounts/${encodeURIComponent(accountSid)}/Messages.json`;
  const auth = 'Basic ' + Buffer.from(`${accountSid}:${authToken}`).toString('base64');
  return {
    async send(to, body) {
      const res = await fetch(endpoint, {
        method: 'POST',
        headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams({ To: to, From: from, Body: body }).toString(),
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (!res.ok) {
        // the provider's body can echo the message (and the code): log only the status
        await res.body?.cancel().catch(() => undefined);
        throw new Error(`sms provider answered ${res.status}`);
      }
      await res.body?.cancel().catch(() => undefined);
      log.info({ to }, 'sms sent');
    },
  };
}

const senders = new WeakMap<AppConfig, SmsSender>();

/** The configured sender for this app (created on first use). */
export function smsSenderFor(app: { config: AppConfig; log: FastifyBaseLogger }): SmsSender {
  let s = senders.get(app.config);
  if (!s) {
    s = app.config.smsProvider === 'twilio' ? twilioSmsSender(app.config.twilio, app.log) : logSmsSender(app.config.dataDir, app.log);
    senders.set(app.config, s);
  }
  return s;
}

/** Tests: replace the sender of an app. */
export function setSmsSender(app: { config: AppConfig }, sender: SmsSender): void {
  senders.set(app.config, sender);
}
