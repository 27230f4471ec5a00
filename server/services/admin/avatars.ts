import { randomUUID } from 'node:crypto';
import { mkdir, rename, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Metadata } from 'sharp';
import { nowIso } from '../../db/index';
import { AppError } from '../../errors';
import type { Deps } from '../deps';

/** docs/SPEC.md §5: .jpg/.jpeg/.png, at most 1200x600. */
export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;
export const AVATAR_MAX_WIDTH = 1200;
export const AVATAR_MAX_HEIGHT = 600;
export const AVATAR_FILE_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.png$/;

export const avatarDir = (deps: Pick<Deps, 'config'>) => path.join(deps.config.dataDir, 'avatars');

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** End offset of the PNG chunk stream (just after IEND), or -1 when the chunks do not parse. */
function pngEnd(buf: Buffer): number {
  if (buf.length < 8 || !buf.subarray(0, 8).equals(PNG_MAGIC)) return -1;
  let at = 8;
  while (at + 12 <= buf.length) {
    const len = buf.readUInt32BE(at);
    const type = buf.toString('latin1', at + 4, at + 8);
    const next = at + 12 + len;
    if (len > 0x7fffffff || next > buf.length) return -1;
    if (type === 'IEND') return len === 0 ? next : -1;
    at = next;
  }
  return -1;
}

/**
 * End offset of a JPEG (just after the EOI that closes it), or -1: walks the marker segments, and through the
 * entropy-coded data after each SOS (where FF00 and RST markers are data), to the first EOI outside any segment.
 */
function jpegEnd(buf: Buffer): number {
  if (!(buf[0] === 0xff && buf[1] === 0xd8)) return -1;
  let at = 2;
  while (at + 1 < buf.length) {
    if (buf[at] !== 0xff) return -1;
    const marker = buf[at + 1] as number;
    if (marker === 0xff) {
      at++; // fill byte
      continue;
    }
    if (marker === 0xd9) return at + 2;
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      at += 2;
      continue;
    }
    if (at + 4 > buf.length) return -1;
    const len = buf.readUInt16BE(at + 2);
    if (len < 2) return -1;
    at += 2 + len;
    if (marker === 0xda) {
      // entropy-coded data: runs to the next marker that is not FF00 or a restart marker
      while (at + 1 < buf.length && !(buf[at] === 0xff && buf[at + 1] !== 0x00 && !((buf[at + 1] as number) >= 0xd0 && (buf[at + 1] as number) <= 0xd7))) at++;
    }
  }
  return -1;
}

/**
 * The bytes must be exactly one PNG or JPEG: the right magic at the start, and the container's own end (the
 * IEND chunk reached by walking the chunks, the EOI reached by walking the segments) at the end of the upload —
 * nothing after it, which refuses the usual polyglots (an image with HTML, a ZIP, a script or a second image
 * appended, even one that ends with a copied end marker).
 */
function strictContainer(buf: Buffer, format: string): boolean {
  if (format === 'png') return pngEnd(buf) === buf.length;
  if (format === 'jpeg') {
    const end = jpegEnd(buf);
    // allow trailing padding zeros some encoders write, nothing else
    return end > 0 && buf.subarray(end).every((b) => b === 0x00);
  }
  return false;
}

/**
 * Checks an upload by its content (sharp's decoder, not the file name), decodes it and re-encodes it as PNG
 * without metadata (EXIF, ICC comments, text chunks are dropped), saved as `<uuid>.png`.
 */
export async function storeAvatar(deps: Pick<Deps, 'config'>, buf: Buffer): Promise<string> {
  // loaded on the first upload, not at start: libvips is ~10 MB of resident memory an idle server does not need
  const { default: sharp } = await import('sharp');
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
  const dir = avatarDir(deps);
  await mkdir(dir, { recursive: true });
  const name = `${randomUUID()}.png`;
  const tmp = path.join(dir, `.${name}.tmp`);
  await writeFile(tmp, out, { mode: 0o640 });
  await rename(tmp, path.join(dir, name));
  return name;
}

export async function removeAvatarFile(deps: Pick<Deps, 'config'>, name: string | null): Promise<void> {
  if (!name || !AVATAR_FILE_RE.test(name)) return;
  await unlink(path.join(avatarDir(deps), name)).catch(() => undefined);
}

/** Replaces the account's avatar (old file removed after the row points to the new one). */
export async function setAvatar(deps: Pick<Deps, 'db' | 'config'>, accountId: string, buf: Buffer): Promise<string> {
  const name = await storeAvatar(deps, buf);
  const before = await deps.db.kysely.selectFrom('accounts').select('avatar').where('id', '=', accountId).executeTakeFirst();
  await deps.db.kysely.updateTable('accounts').set({ avatar: name, updated_at: nowIso() }).where('id', '=', accountId).execute();
  await removeAvatarFile(deps, before?.avatar ?? null);
  return name;
}

export async function clearAvatar(deps: Pick<Deps, 'db' | 'config'>, accountId: string): Promise<void> {
  const before = await deps.db.kysely.selectFrom('accounts').select('avatar').where('id', '=', accountId).executeTakeFirst();
  await deps.db.kysely.updateTable('accounts').set({ avatar: null, updated_at: nowIso() }).where('id', '=', accountId).execute();
  await removeAvatarFile(deps, before?.avatar ?? null);
}
