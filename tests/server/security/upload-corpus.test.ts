import { performance } from 'node:perf_hooks';
import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { beforeAll, expect, it } from 'vitest';
import { errorCode } from '../../helpers/env';
import { describeEachDb } from '../../helpers/app';
import { createAccount, signIn } from '../../helpers/auth';
import { multipart } from '../admin/fixtures';
import { avatarImage } from '../../../server/services/admin/avatars';
import { avatarCorpus, PAYLOAD_MARKERS, type UploadCase } from './hostile-files';

/**
 * Issue 10 — a generated corpus of ≥ 200 hostile uploads (polyglots, SVG/HTML, bombs, truncated files, EXIF
 * with GPS, wrong names and types, trailing payloads): every one is refused or stored re-encoded, and a stored
 * avatar never holds the original bytes (nor any payload marker, EXIF or GPS). (CSV files: csv-corpus.test.ts.)
 */
const RAISED: Record<string, string> = { IAM_RATE_LIMIT_PER_MINUTE: '1000000' };

const PW = 'Corpus-Upload-7!x';
let corpus: UploadCase[] = [];
beforeAll(async () => {
  corpus = await avatarCorpus();
}, 120_000);

describeEachDb('hostile corpus: avatar uploads', (get) => {
  let userAuth = '';
  beforeAll(async () => {
    const t = get();
    const tag = randomBytes(3).toString('hex');
    await createAccount(t, { type: 'user', email: `corpus.user.${tag}@example.com`, password: PW });
    userAuth = (await signIn(t, { email: `corpus.user.${tag}@example.com`, password: PW })).authorization;
  }, 120_000);

  it('≥ 200 hostile avatar uploads: each refused (413/422) or stored re-encoded as a clean PNG that holds none of the original bytes', { timeout: 180_000 }, async () => {
    const t = get();
    expect(corpus.length).toBeGreaterThanOrEqual(200);
    const wrong: string[] = [];
    let accepted = 0;
    const started = performance.now();
    for (const c of corpus) {
      const form = multipart(c.field ?? 'avatar', c.filename, c.bytes, c.type);
      const res = await t.app.inject({ method: 'POST', url: '/api/user/avatar', payload: form.payload, headers: { ...form.headers, authorization: userAuth } });
      if (res.statusCode === 200) {
        accepted++;
        if (c.expect === 'refuse') wrong.push(`${c.name}: accepted, should be refused`);
        const url = res.json<{ data: { avatar_url: string } }>().data.avatar_url;
        const file = /^\/api\/avatars\/([0-9a-f-]{36}\.png)$/.exec(url)?.[1];
        if (!file) {
          wrong.push(`${c.name}: odd avatar_url ${url}`);
          continue;
        }
        const stored = await avatarImage(t.app, file);
        if (!stored) {
          wrong.push(`${c.name}: no stored image`);
          continue;
        }
        const meta = await sharp(stored).metadata();
        const latin = stored.toString('latin1');
        const problems = [
          stored.equals(c.bytes) && 'stored the original bytes',
          c.bytes.length >= 32 && stored.includes(c.bytes) && 'stored contains the original bytes',
          !stored.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) && 'not a PNG',
          meta.format !== 'png' && `format ${meta.format}`,
          meta.exif && 'EXIF kept',
          meta.xmp && 'XMP kept',
          (meta.comments?.length ?? 0) > 0 && 'text chunks kept',
          ((meta.width ?? 0) > 1200 || (meta.height ?? 0) > 600) && `dimensions ${meta.width}x${meta.height}`,
          ...PAYLOAD_MARKERS.filter((m) => latin.includes(m)).map((m) => `payload ${JSON.stringify(m)} kept`),
        ].filter(Boolean);
        if (problems.length) wrong.push(`${c.name}: ${problems.join(', ')}`);
      } else if (res.statusCode === 413 || res.statusCode === 422) {
        if (c.expect === 'accept') wrong.push(`${c.name}: refused ${res.statusCode} ${res.body.slice(0, 120)}`);
        const code = errorCode(res);
        if (!code || !['avatar_invalid_type', 'avatar_too_large_dimensions', 'avatar_too_large', 'validation_failed', 'payload_too_large'].includes(code)) wrong.push(`${c.name}: refusal code ${code}`);
      } else {
        wrong.push(`${c.name}: status ${res.statusCode} ${res.body.slice(0, 200)}`);
      }
    }
    console.info(`[corpus ${t.kind}] ${corpus.length} uploads (${accepted} stored re-encoded, ${corpus.length - accepted} refused) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    expect(wrong).toEqual([]);
    expect(accepted).toBeGreaterThan(50);

    // the file is served as an inert PNG
    const me = await t.app.inject({ method: 'GET', url: '/api/user', headers: { authorization: userAuth } });
    const avatarUrl = me.json<{ data: { auth_user: { avatar?: string | null; avatar_url?: string | null } } }>().data.auth_user;
    const served = String(avatarUrl.avatar_url ?? avatarUrl.avatar ?? '');
    expect(served).toMatch(/^\/api\/avatars\//);
    const img = await t.app.inject({ method: 'GET', url: served });
    expect(img.statusCode).toBe(200);
    expect(img.headers['content-type']).toBe('image/png');
    expect(img.headers['x-content-type-options']).toBe('nosniff');
    // inert: runs nothing, loads nothing, and no other site may frame it
    const csp = String(img.headers['content-security-policy']).split(';').map((d) => d.trim());
    expect(csp).toEqual(expect.arrayContaining(["default-src 'none'", 'sandbox', "frame-ancestors 'none'"]));
  });

}, RAISED);
