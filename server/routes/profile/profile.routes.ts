import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as profile from '../../../contract/profile';
import { routeOf } from '../../lib/route';
import { actorOf } from '../../services/deps';
import { readAvatarUpload } from './avatar-upload';

/** Own profile and avatar (users: /user…, admins: /admin…) and public avatar files: contract/profile.ts, server/services/profile.ts. */
const routes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.profile;
  for (const kind of ['user', 'admin'] as const) {
    const endpoints = profile.byKind[kind];
    app.route({ ...routeOf(endpoints.updateProfile), handler: async (req) => ({ data: await service.update(actorOf(req), req.body) }) });

    const upload = routeOf(endpoints.uploadAvatar);
    app.route({
      ...upload,
      schema: { ...upload.schema, consumes: ['multipart/form-data'] },
      handler: async (req) => ({ data: { avatar_url: await service.setAvatar(actorOf(req), await readAvatarUpload(req)) } }),
    });

    app.route({
      ...routeOf(endpoints.removeAvatar),
      handler: async (req) => {
        await service.removeAvatar(actorOf(req));
        return { data: { avatar_url: null } };
      },
    });
  }

  const file = routeOf(profile.avatarFile);
  app.route({
    ...file,
    schema: { ...file.schema, produces: ['image/png'] },
    handler: async (req, reply) => {
      const image = await service.avatarFile(req.params.file);
      reply
        .header('content-type', 'image/png')
        .header('content-length', String(image.length))
        .header('x-content-type-options', 'nosniff')
        .header('content-disposition', 'inline; filename="avatar.png"')
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('content-security-policy', "default-src 'none'; frame-ancestors 'none'; sandbox")
        .header('cross-origin-resource-policy', 'same-origin');
      return reply.send(image as unknown as string);
    },
  });
};
export default routes;
