import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import PostalMime from 'postal-mime';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDb } from '../../helpers/app';
import { actor, type Actor } from './fixtures';

/** Issue 14: the invitation mail is in the language chosen in the Add admin / Add user dialog, not the inviting admin's. */
describeEachDb('invitation mails use the chosen language', (get) => {
  let germanAdmin: Actor;
  beforeAll(async () => {
    germanAdmin = await actor(get(), 'super_admin', { locale: 'de' });
  });

  /** The parsed mail sent to `to` (the outbox holds one .eml per mail). */
  async function mailTo(to: string) {
    const dir = path.join(get().dataDir, 'outbox');
    const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.eml')) : [];
    for (const f of files) {
      const parsed = await PostalMime.parse(readFileSync(path.join(dir, f)));
      if (parsed.to?.some((a) => a.address === to)) return parsed;
    }
    throw new Error(`no mail to ${to}`);
  }

  it('Add admin: a French admin invited by a German admin gets the French mail', async () => {
    const res = await get().app.inject({
      method: 'POST', url: '/api/admin/admins', headers: germanAdmin.headers,
      payload: { email: 'new.admin.fr@example.com', first_name: 'Jeanne', last_name: 'Martin', role: 'manager', locale: 'fr' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({ locale: 'fr', invitation_sent: true });
    const mail = await mailTo('new.admin.fr@example.com');
    expect(mail.subject).toContain('Invitation à administrer');
    expect(mail.text).toContain('vous avez été ajouté comme administrateur');
  });

  it('Add user: an Italian user invited by a German admin gets the Italian mail', async () => {
    const res = await get().app.inject({
      method: 'POST', url: '/api/admin/users', headers: germanAdmin.headers,
      payload: { email: 'new.user.it@example.com', first_name: 'Luca', last_name: 'Bianchi', locale: 'it', auth_type: 'CREDENTIALS' },
    });
    expect(res.statusCode).toBe(201);
    const mail = await mailTo('new.user.it@example.com');
    expect(mail.subject).toContain('Invito a');
    expect(mail.text).toContain('un amministratore ha creato un account per te');
  });
}, { IAM_RATE_LIMIT_PER_MINUTE: '100000' });
