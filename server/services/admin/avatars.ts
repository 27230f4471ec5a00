import { randomUUID } from 'node:crypto';
import { mkdir, rename, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp, { type Metadata } from 'sharp';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { nowIso } from '../../db/index';
import { AppError } from '../../errors';

/** SPEC §5: .jpg/.jpeg/.png, at most 1200x600. */
export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;
export const AVATAR_MAX_WIDTH = 1200;
export const AVATAR_MAX_HEIGHT = 600;
export const AVATAR_FILE_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.png$/;

export const avatarDir = (app: FastifyInstance) => path.join(app.config.dataDir, 'avatars');

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const PNG_IEND = Buffer.from([0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]);

/**
 * The bytes must be exactly one PNG or JPEG: the right magic at the start, and nothing after the end marker
 * (IEND / EOI), which refuses the usual polyglots (an image with HTML, a ZIP or a script appended).
 */
function strictContainer(buf: Buffer, format: string): boolean {
  if (format === 'png') return buf.subarray(0, 8).equals(PNG_MAGIC) && buf.subarray(buf.length - 12).equals(PNG_IEND);
  if (format === 'jpeg') {
    if (!(buf[0] === 0xff && buf[1] === 0xd8 && buf[2] === 0xff)) return false;
    // allow trailing padding zeros some encoders write, nothing else
    let end = buf.length;
    while (end > 2 && buf[end - 1] === 0x00) end--;
    return buf[end - 2] === 0xff && buf[end - 1] === 0xd9;
  }
  return false;
}

/**
 * Checks an upload by its content (sharp's decoder, not the file name), decodes it and re-encodes it as PNG
 * without metadata (EXIF, ICC comments, text chunks are dropped), saved as `<uuid>.png`.
 */
export async function storeAvatar(app: FastifyInstance, buf: Buffer): Promise<string> {
  let meta: Metadata;
  try {
    meta = await sharp(buf, { failOn: 'error', limitInputPixels: 4096 * 4096 }).metadata();
  } catch {
    throw new AppError(422, 'avatar_invalid_type', { fields: { avatar: ['avatar_invalid_type'] } });
  }
  if ((meta.format !== 'png' && meta.format !== 'jpeg') || !strictContainer(buf, meta.format) || (meta.pages ?? 1) > 1) {
    throw new AppError(422, 'avatar_invalid_type', { fields: { avatar: ['avatar_invalid_type'] } });
  }
  // EXIF orientation 5-8 swaps the displayed width and height
  const swap = (meta.orientation ?? 1) >= 5;
  const width = (swap ? meta.height : meta.width) ?? 0;
  const height = (swap ? meta.width : meta.height) ?? 0;
  if (width < 1 || height < 1 || width > AVATAR_MAX_WIDTH || height > AVATAR_MAX_HEIGHT) {
    throw new AppError(422, 'avatar_too_large_dimensions', { fields: { avatar: ['avatar_too_large_dimensions'] } });
  }
  let out: Buffer;
  try {
    out = await sharp(buf, { failOn: 'error' }).rotate().png({ compressionLevel: 9 }).toBuffer();
  } catch {
    throw new AppError(422, 'avatar_invalid_type', { fields: { avatar: ['avatar_invalid_type'] } });
  }
  const dir = avatarDir(app);
  await mkdir(dir, { recursive: true });
  const name = `${randomUUID()}.png`;
  const tmp = path.join(dir, `.${name}.tmp`);
  await writeFile(tmp, out, { mode: 0o640 });
  await rename(tmp, path.join(dir, name));
  return name;
}

export async function removeAvatarFile(app: FastifyInstance, name: string | null): Promise<void> {
  if (!name || !AVATAR_FILE_RE.test(name)) return;
  await unlink(path.join(avatarDir(app), name)).catch(() => undefined);
}

/** Reads the multipart field `avatar` (size-limited: 413 avatar_too_large). */
export async function readAvatarUpload(request: FastifyRequest): Promise<Buffer> {
  if (!request.isMultipart()) throw new AppError(422, 'validation_failed', { fields: { avatar: ['required'] } });
  const file = await request.file({ limits: { fileSize: AVATAR_MAX_BYTES, files: 1 } });
  if (!file || file.fieldname !== 'avatar') throw new AppError(422, 'validation_failed', { fields: { avatar: ['required'] } });
  const buf = await file.toBuffer().catch((err: unknown) => {
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError(413, 'avatar_too_large', { params: { size: AVATAR_MAX_BYTES / 1024 / 1024 } });
    throw err;
  });
  if (buf.length === 0) throw new AppError(422, 'validation_failed', { fields: { avatar: ['required'] } });
  return buf;
}

/** Replaces the account's avatar (old file removed after the row points to the new one). */
export async function setAvatar(request: FastifyRequest, accountId: string, buf: Buffer): Promise<string> {
  const app = request.server;
  const name = await storeAvatar(app, buf);
  const before = await app.db.kysely.selectFrom('accounts').select('avatar').where('id', '=', accountId).executeTakeFirst();
  await app.db.kysely.updateTable('accounts').set({ avatar: name, updated_at: nowIso() }).where('id', '=', accountId).execute();
  await removeAvatarFile(app, before?.avatar ?? null);
  return name;
}

export async function clearAvatar(request: FastifyRequest, accountId: string): Promise<void> {
  const app = request.server;
  const before = await app.db.kysely.selectFrom('accounts').select('avatar').where('id', '=', accountId).executeTakeFirst();
  await app.db.kysely.updateTable('accounts').set({ avatar: null, updated_at: nowIso() }).where('id', '=', accountId).execute();
  await removeAvatarFile(app, before?.avatar ?? null);
}
