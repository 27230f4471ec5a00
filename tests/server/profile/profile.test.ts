import { beforeAll, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describeEachDb } from '../../helpers/app';
import { actor, multipart, PASSWORD, type Actor } from '../admin/fixtures';
import { avatarImage } from '../../../server/services/admin/avatars';

const png = (w: number, h: number) =>
  sharp({ create: { width: w, height: h, channels: 3, background: { r: 200, g: 10, b: 10 } } })
    .png()
    .withExif({ IFD0: { Copyright: 'SECRET-EXIF-MARKER', Artist: 'Someone' } })
    .toBuffer();
const jpeg = (w: number, h: number) =>
  sharp({ create: { width: w, height: h, channels: 3, background: { r: 10, g: 200, b: 10 } } })
    .jpeg()
    .withExif({ IFD0: { Copyright: 'SECRET-EXIF-MARKER' } })
    .toBuffer();

describeEachDb('profiles and avatars', (get) => {
  let user: Actor;
  let admin: Actor;
  beforeAll(async () => {
    user = await actor(get(), 'user');
    admin = await actor(get(), 'manager');
  });
  const upload = (who: Actor, prefix: '/api/user' | '/api/admin', content: Buffer | string, name = 'a.png', type = 'image/png') => {
    const m = multipart('avatar', name, content, type);
    return get().app.inject({ method: 'POST', url: `${prefix}/avatar`, headers: { ...who.headers, ...m.headers }, payload: m.payload });
  };

  it('PATCH /api/user updates the profile and answers data.locale', async () => {
    const res = await get().app.inject({ method: 'PATCH', url: '/api/user', headers: user.headers, payload: { first_name: 'Lea', last_name: 'Meier', phone: '+41791112233', locale: 'fr' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ first_name: 'Lea', last_name: 'Meier', phone: '+41791112233', locale: 'fr' });
    const bad = await get().app.inject({ method: 'PATCH', url: '/api/user', headers: user.headers, payload: { phone: '0791112233', locale: 'es' } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().error.fields).toMatchObject({ phone: ['invalid'], locale: ['invalid'] });
    // the new locale is searchable by admins right away (search text follows the names)
    const found = await get().app.inject({ method: 'GET', url: '/api/admin/users?search=lea%20meier', headers: admin.headers });
    expect(found.json().meta.total).toBe(1);
  });

  it('changing the e-mail needs the current password (422 current_password_invalid)', async () => {
    const missing = await get().app.inject({ method: 'PATCH', url: '/api/user', headers: user.headers, payload: { email: 'changed@example.com' } });
    expect(missing.statusCode).toBe(422);
    const wrong = await get().app.inject({ method: 'PATCH', url: '/api/user', headers: { ...user.headers, locale: 'fr' }, payload: { email: 'changed@example.com', current_password: 'nope-nope-nope' } });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().error).toMatchObject({ code: 'current_password_invalid', fields: { current_password: ['current_password_invalid'] }, message: 'Le mot de passe actuel est invalide' });
    const other = await actor(get(), 'user');
    const taken = await get().app.inject({ method: 'PATCH', url: '/api/user', headers: user.headers, payload: { email: other.account.email.toUpperCase(), current_password: PASSWORD } });
    expect(taken.statusCode).toBe(409);
    const ok = await get().app.inject({ method: 'PATCH', url: '/api/user', headers: user.headers, payload: { email: 'changed@example.com', current_password: PASSWORD } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data.email).toBe('changed@example.com');
  });

  it('PATCH /api/admin updates the admin profile', async () => {
    const res = await get().app.inject({ method: 'PATCH', url: '/api/admin', headers: admin.headers, payload: { locale: 'it', last_name: 'Rossi' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ locale: 'it', last_name: 'Rossi', type: 'admin' });
  });

  it('stores an avatar re-encoded as PNG without EXIF and serves it with safe headers', async () => {
    const src = await png(300, 200);
    expect(src.includes(Buffer.from('SECRET-EXIF-MARKER'))).toBe(true);
    const res = await upload(user, '/api/user', src);
    expect(res.statusCode).toBe(200);
    const url: string = res.json().data.avatar_url;
    expect(url).toMatch(/^\/api\/avatars\/[0-9a-f-]{36}\.png$/);
    const images = () => get().db.kysely.selectFrom('avatar_images').select('name').execute().then((rows) => rows.map((r) => r.name));
    const stored = (await avatarImage(get().app, path.basename(url))) ?? Buffer.alloc(0);
    expect(stored.includes(Buffer.from('SECRET-EXIF-MARKER'))).toBe(false);
    const meta = await sharp(stored).metadata();
    expect(meta).toMatchObject({ format: 'png', width: 300, height: 200 });
    expect(meta.exif).toBeUndefined();

    const served = await get().app.inject({ method: 'GET', url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(String(served.headers['content-disposition'])).toMatch(/^inline/);
    expect(String(served.headers['content-security-policy'])).toContain("default-src 'none'");
    expect(served.headers['cache-control']).toBeDefined();
    expect(served.rawPayload.equals(stored)).toBe(true);
    expect((await get().app.inject({ method: 'GET', url: '/api/avatars/..%2F..%2Fiam.sqlite' })).statusCode).toBe(404);

    // a JPEG (named .png: the content decides) replaces it; the old image is removed
    const j = await upload(user, '/api/user', await jpeg(120, 80), 'photo.png', 'image/png');
    expect(j.statusCode).toBe(200);
    expect(await images()).toEqual([path.basename(j.json().data.avatar_url)]);
    const del = await get().app.inject({ method: 'DELETE', url: '/api/user/avatar', headers: user.headers });
    expect(del.json().data.avatar_url).toBeNull();
    expect(await images()).toEqual([]);
    // nothing on the instance's disk
    expect(existsSync(path.join(get().dataDir, 'avatars'))).toBe(false);
    expect((await upload(admin, '/api/admin', await png(10, 10))).statusCode).toBe(200);
  });

  it('refuses GIF, SVG, polyglots, oversized images and files', async () => {
    const gif = await sharp({ create: { width: 10, height: 10, channels: 3, background: 'blue' } }).gif().toBuffer();
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>';
    const polyglot = Buffer.concat([await png(10, 10), Buffer.from('<html><script>alert(1)</script></html>')]);
    for (const [content, name] of [[gif, 'a.png'], [svg, 'a.png'], [polyglot, 'a.png'], ['not an image', 'a.jpg']] as const) {
      const res = await upload(user, '/api/user', content, name);
      expect(res.statusCode).toBe(422);
      expect(res.json().error.code).toBe('avatar_invalid_type');
    }
    const wide = await upload(user, '/api/user', await png(1201, 100));
    expect(wide.statusCode).toBe(422);
    expect(wide.json().error.code).toBe('avatar_too_large_dimensions');
    expect((await upload(user, '/api/user', await png(1200, 600))).statusCode).toBe(200);
    const big = await upload(user, '/api/user', Buffer.alloc(2 * 1024 * 1024 + 10, 1));
    expect(big.statusCode).toBe(413);
    const none = await get().app.inject({ method: 'POST', url: '/api/user/avatar', headers: user.headers, payload: {} });
    expect(none.statusCode).toBe(422);
  });
}, { IAM_RATE_LIMIT_PER_MINUTE: '100000' });
