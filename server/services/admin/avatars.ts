import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
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

/** Where releases before migration 0014 kept avatar files (read once by importAvatarFiles, never written). */
export const legacyAvatarDir = (deps: Pick<Deps, 'config'>) => path.join(deps.config.dataDir, 'avatars');

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
 * without metadata (EXIF, ICC comments, text chunks are dropped). Returns the PNG.
 */
export async function encodeAvatar(buf: Buffer): Promise<Buffer> {
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
  try {
    return await sharp(buf, { failOn: 'error' }).rotate().png({ compressionLevel: 9 }).toBuffer();
  } catch {
    throw new AppError(422, 'avatar_invalid_type', { fields: { avatar: ['avatar_invalid_type'] } });
  }
}

/**
 * Avatars live in the database (`avatar_images`, migration 0014), not on an instance's disk: every instance serves
 * every avatar (issue 30.2). The account row names its image (`<uuid>.png`); a new upload gets a new name, so the
 * URL can be cached for good.
 */

/** Replaces the account's avatar: the image row, the account's pointer and the old row's removal in one transaction. */
export async function setAvatar(deps: Pick<Deps, 'db'>, accountId: string, buf: Buffer): Promise<string> {
  const content = await encodeAvatar(buf);
  const name = `${randomUUID()}.png`;
  await deps.db.kysely.transaction().execute(async (trx) => {
    await trx.insertInto('avatar_images').values({ name, content, created_at: nowIso() }).execute();
    const before = await trx.selectFrom('accounts').select('avatar').where('id', '=', accountId).executeTakeFirst();
    await trx.updateTable('accounts').set({ avatar: name, updated_at: nowIso() }).where('id', '=', accountId).execute();
    if (before?.avatar) await trx.deleteFrom('avatar_images').where('name', '=', before.avatar).execute();
  });
  return name;
}

export async function clearAvatar(deps: Pick<Deps, 'db'>, accountId: string): Promise<void> {
  await deps.db.kysely.transaction().execute(async (trx) => {
    const before = await trx.selectFrom('accounts').select('avatar').where('id', '=', accountId).executeTakeFirst();
    await trx.updateTable('accounts').set({ avatar: null, updated_at: nowIso() }).where('id', '=', accountId).execute();
    if (before?.avatar) await trx.deleteFrom('avatar_images').where('name', '=', before.avatar).execute();
  });
}

/** The PNG of an avatar by name; null when there is none (or the name is not an avatar name). */
export async function avatarImage(deps: Pick<Deps, 'db'>, name: string): Promise<Buffer | null> {
  if (!AVATAR_FILE_RE.test(name)) return null;
  const row = await deps.db.kysely.selectFrom('avatar_images').select('content').where('name', '=', name).executeTakeFirst();
  return row ? Buffer.from(row.content) : null;
}

/**
 * Moves the avatar files of a release before migration 0014 into the database: for every account whose avatar has
 * no image row, the file `$IAM_DATA_DIR/avatars/<name>` is read and inserted (a missing file is left alone: that
 * instance never had it — run the start on the instance whose disk holds it, or copy the files over). Idempotent;
 * the files are not deleted (a rollback to the previous release still finds them). Returns how many were moved.
 */
export async function importAvatarFiles(deps: Pick<Deps, 'db' | 'config'>): Promise<{ moved: number; missing: number }> {
  const rows = await deps.db.kysely
    .selectFrom('accounts')
    .leftJoin('avatar_images', 'avatar_images.name', 'accounts.avatar')
    .select('accounts.avatar')
    .where('accounts.avatar', 'is not', null)
    .where('avatar_images.name', 'is', null)
    .execute();
  let moved = 0;
  let missing = 0;
  for (const { avatar } of rows) {
    if (!avatar || !AVATAR_FILE_RE.test(avatar)) continue;
    const content = await readFile(path.join(legacyAvatarDir(deps), avatar)).catch(() => null);
    if (!content) {
      missing++;
      continue;
    }
    const r = await deps.db.kysely.insertInto('avatar_images').values({ name: avatar, content, created_at: nowIso() }).onConflict((oc) => oc.column('name').doNothing()).executeTakeFirst();
    moved += Number(r.numInsertedOrUpdatedRows ?? 0);
  }
  return { moved, missing };
}
