import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyInstance } from 'fastify';
import type { AccountType } from '../../db/schema';
import { AppError } from '../../errors';
import { errorResponses } from '../../lib/openapi';
import { assertDiffersFromCurrent, newPasswordBody, setAccountPassword } from '../../services/account-passwords';
import { checkSignedLink, LINK_PATHS, parseSignedUrl, type ValidLink } from '../../services/signed-links';

const tags = ['invitation'];
const linkQuery = z.object({
  token: z.string().max(256).optional(),
  expires: z.string().max(32).optional(),
  signature: z.string().max(256).optional(),
});
const validLink = z.object({ data: z.object({ valid: z.literal(true), email: z.string() }) });
const verifyBody = newPasswordBody({ url: z.string().min(1).max(4096) });

/** The invitation carried by a full signed URL (the SPA page's `url` parameter): 403 `invalid_link` unless valid. */
export async function invitationFromUrl(app: FastifyInstance, type: AccountType, url: string): Promise<ValidLink> {
  const path = LINK_PATHS.invitation[type];
  const parsed = parseSignedUrl(url, [path]);
  if (!parsed) throw new AppError(403, 'invalid_link');
  return checkSignedLink(app, path, parsed, 'invitation', type);
}

/** Invitation: check the signed link, then set the password once (flow `sc`). */
const routes: FastifyPluginAsyncZod = async (app) => {
  for (const type of ['user', 'admin'] as const) {
    const base = type === 'admin' ? '/admin' : '/user';

    app.get(
      `${base}/verify-link`,
      {
        schema: {
          tags,
          summary: `Checks a signed ${type} invitation link (the full URL from the verify page's url parameter)`,
          querystring: linkQuery,
          response: { 200: validLink, ...errorResponses(403, 422) },
        },
      },
      async (request) => {
        const { account } = await checkSignedLink(app, LINK_PATHS.invitation[type], request.query, 'invitation', type);
        return { data: { valid: true as const, email: account.email } };
      },
    );

    app.post(
      `${base}/verify`,
      {
        schema: {
          tags,
          summary: `Finishes the ${type} invitation: sets the password (the link works once)`,
          body: verifyBody,
          response: { 200: z.object({ data: z.object({ flow: z.literal('sc') }) }), ...errorResponses(403, 422, 429) },
        },
      },
      async (request) => {
        const { url, password } = request.body;
        const { tokenId, account } = await invitationFromUrl(app, type, url);
        await assertDiffersFromCurrent(account, password);
        await setAccountPassword(app, account, password, { tokenId, markVerified: true, endSessions: 'all' });
        return { data: { flow: 'sc' as const } };
      },
    );
  }
};
export default routes;
