import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { requireAdmin, requireUser } from '../../plugins/app/auth';
import { AppError } from '../../errors';
import { errorResponses } from '../../lib/openapi';
import { nowIso } from '../../db/index';
import { emailSchema, personNameSchema, phoneSchema } from '../../../contract/domain/formats';
import { accountSchema, accountView, localeEnum } from '../../services/admin/schemas';
import { normalizeEmail, searchTextOf } from '../../services/accounts';
import { verifyPassword } from '../../services/passwords';
import { AVATAR_FILE_RE, avatarDir, clearAvatar, readAvatarUpload, setAvatar } from '../../services/admin/avatars';

const profileBody = z.object({
  first_name: personNameSchema.optional(),
  last_name: personNameSchema.optional(),
  phone: phoneSchema.nullish(),
  locale: localeEnum.optional(),
  email: emailSchema.optional(),
  current_password: z.string().max(200).optional().describe('required to change the e-mail address'),
});
type ProfileInput = z.infer<typeof profileBody>;

async function updateProfile(request: FastifyRequest, input: ProfileInput) {
  const me = request.auth?.account;
  if (!me) throw new AppError(401, 'unauthorized');
  const db = request.server.db.kysely;
  const patch: { first_name?: string; last_name?: string; phone?: string | null; locale?: string; email?: string; email_normalized?: string; email_verified_at?: null } = {};
  if (input.first_name !== undefined) patch.first_name = input.first_name;
  if (input.last_name !== undefined) patch.last_name = input.last_name;
  if (input.phone !== undefined) patch.phone = input.phone;
  if (input.locale !== undefined) patch.locale = input.locale;
  if (input.email !== undefined && normalizeEmail(input.email) !== me.email_normalized) {
    if (!input.current_password) throw new AppError(422, 'validation_failed', { fields: { current_password: ['current_password_required'] } });
    if (!me.password_hash || !(await verifyPassword(me.password_hash, input.current_password))) {
      throw new AppError(422, 'current_password_invalid', { fields: { current_password: ['current_password_invalid'] } });
    }
    const taken = await db.selectFrom('accounts').select('id').where('type', '=', me.type).where('email_normalized', '=', normalizeEmail(input.email)).executeTakeFirst();
    if (taken) throw new AppError(409, 'email_taken', { fields: { email: ['email_taken'] } });
    patch.email = input.email.trim();
    patch.email_normalized = normalizeEmail(input.email);
    // nobody has shown control of the new address yet (the OIDC email_verified claim reads this column)
    patch.email_verified_at = null;
  }
  if (Object.keys(patch).length) {
    const merged = { ...me, ...patch };
    try {
      await db.updateTable('accounts').set({ ...patch, search_text: searchTextOf(merged), updated_at: nowIso() }).where('id', '=', me.id).execute();
    } catch (err) {
      const e = err as { code?: string; message?: string };
      if (e?.code === '23505' || /UNIQUE constraint failed/.test(e?.message ?? '')) throw new AppError(409, 'email_taken', { fields: { email: ['email_taken'] } });
      throw err;
    }
  }
  const fresh = await db.selectFrom('accounts').selectAll().where('id', '=', me.id).executeTakeFirstOrThrow();
  return accountView(fresh);
}

/** Own profile and avatar (users: /user…, admins: /admin…) and public avatar files. */
const routes: FastifyPluginAsyncZod = async (app) => {
  const sec = [{ bearer: [] }];
  for (const [prefix, guard, tag] of [['/user', requireUser, 'profile: user'], ['/admin', requireAdmin(), 'profile: admin']] as const) {
    app.patch(prefix, {
      onRequest: guard,
      schema: {
        tags: [tag], summary: 'Update the own profile (e-mail change needs current_password); answer has data.locale', security: sec,
        body: profileBody,
        response: { 200: z.object({ data: accountSchema }), ...errorResponses(401, 403, 409, 422) },
      },
    }, async (req) => ({ data: await updateProfile(req, req.body) }));

    app.post(`${prefix}/avatar`, {
      onRequest: guard,
      schema: {
        tags: [tag], summary: 'Upload the avatar (multipart field `avatar`; JPG or PNG by content, at most 1200x600 and 2 MB; stored re-encoded as PNG without metadata)',
        security: sec, consumes: ['multipart/form-data'],
        response: { 200: z.object({ data: z.object({ avatar_url: z.string() }) }), ...errorResponses(401, 403, 413, 422) },
      },
    }, async (req) => {
      const me = req.auth?.account;
      if (!me) throw new AppError(401, 'unauthorized');
      const name = await setAvatar(req, me.id, await readAvatarUpload(req));
      return { data: { avatar_url: `/api/avatars/${name}` } };
    });

    app.delete(`${prefix}/avatar`, {
      onRequest: guard,
      schema: { tags: [tag], summary: 'Remove the avatar', security: sec, response: { 200: z.object({ data: z.object({ avatar_url: z.null() }) }), ...errorResponses(401, 403) } },
    }, async (req) => {
      const me = req.auth?.account;
      if (!me) throw new AppError(401, 'unauthorized');
      await clearAvatar(req, me.id);
      return { data: { avatar_url: null } };
    });
  }

  app.get('/avatars/:file', {
    schema: {
      tags: ['profile: user'], summary: 'An avatar image (PNG)',
      params: z.object({ file: z.string().max(64) }),
      produces: ['image/png'],
      response: { 200: z.string().describe('image/png'), ...errorResponses(404) },
    },
  }, async (req, reply) => {
    const { file } = req.params;
    if (!AVATAR_FILE_RE.test(file)) throw new AppError(404, 'avatar_not_found');
    const full = path.join(avatarDir(app), file);
    const st = await stat(full).catch(() => null);
    if (!st?.isFile()) throw new AppError(404, 'avatar_not_found');
    reply
      .header('content-type', 'image/png')
      .header('content-length', String(st.size))
      .header('x-content-type-options', 'nosniff')
      .header('content-disposition', 'inline; filename="avatar.png"')
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('content-security-policy', "default-src 'none'; sandbox")
      .header('cross-origin-resource-policy', 'same-origin');
    return reply.send(createReadStream(full) as unknown as string);
  });
};
export default routes;
