import type { IncomingMessage, ServerResponse } from 'node:http';
import { AppError } from '../errors';
import type { Deps } from '../services/deps';
import type { OidcHandle } from './index';
import { DENIED_PATH, mayUseClient } from './access';
import type { InteractionResult } from './interaction-result';

/**
 * First-party consent for service apps. An administrator registered the app and chose who may use it,
 * so no consent screen is shown: when the provider asks for consent (an explicit prompt=consent, which
 * OpenID Connect requires for offline_access), the consent is recorded as a Grant for the scopes the
 * app asked for and the authorization resumes. The interaction is bound to the browser by the
 * provider's interaction cookie (set for this path), so only the browser that signed in can finish it.
 */
export async function finishConsent(deps: Pick<Deps, 'db' | 'config'>, oidc: Pick<OidcHandle, 'provider'>, req: IncomingMessage, res: ServerResponse, uid: string): Promise<string> {
  const provider = await oidc.provider();
  let interaction: Awaited<ReturnType<typeof provider.interactionDetails>>;
  try {
    interaction = await provider.interactionDetails(req, res);
  } catch {
    throw new AppError(400, 'interaction_expired');
  }
  if (interaction.uid !== uid || interaction.prompt.name !== 'consent') throw new AppError(400, 'interaction_invalid');
  const accountId = interaction.session?.accountId;
  const clientId = String(interaction.params.client_id ?? '');
  const account = accountId ? await deps.db.kysely.selectFrom('accounts').select(['id', 'type', 'status']).where('id', '=', accountId).executeTakeFirst() : undefined;
  if (!account || !(await mayUseClient(deps.db.kysely, clientId, account))) {
    await provider.interactionResult(req, res, { error: 'access_denied', error_description: 'account not allowed for this client' } satisfies InteractionResult, { mergeWithLastSubmission: false });
    return `${deps.config.appUrl}${DENIED_PATH}/${interaction.uid}`;
  }
  const existing = interaction.grantId ? await provider.Grant.find(interaction.grantId) : undefined;
  const grant = existing && existing.accountId === account.id && existing.clientId === clientId ? existing : new provider.Grant({ accountId: account.id, clientId });
  // the scopes themselves are added by loadExistingGrant (provider.ts), the one place that decides them
  const grantId = await grant.save();
  return provider.interactionResult(req, res, { consent: { grantId } } satisfies InteractionResult, { mergeWithLastSubmission: true });
}
