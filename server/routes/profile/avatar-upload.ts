import type { FastifyRequest } from 'fastify';
import { AppError } from '../../errors';
import { AVATAR_MAX_BYTES } from '../../services/admin/avatars';

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

