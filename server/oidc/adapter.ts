import { errors, type Adapter, type AdapterPayload } from 'oidc-provider';
import type { Kysely } from 'kysely';
import { SECRET_AUTH_METHODS, type Database, type SecretAuthMethod, type ServiceApp } from '../db/schema';
import { serviceRedirectUri } from '../../contract/domain/formats';
import { legacyPostLogoutRedirectUris } from '../../contract/domain/redirect-uris';

/** Client metadata (extraClientMetadata) carrying a service app's PKCE setting to the provider. */
export const PKCE_METADATA = 'iam_pkce_required';

const epoch = (): number => Math.floor(Date.now() / 1000);

/** Models whose single-use artefacts must not be consumed twice (race-safe replay detection). */
const SINGLE_USE = new Set(['AuthorizationCode', 'RefreshToken', 'DeviceCode', 'BackchannelAuthenticationRequest']);

/**
 * oidc-provider's `ReplayDetection.unique()` (DPoP proofs at the token endpoint, client assertion `jti`s) is find,
 * then save: two requests carrying the same proof at the same moment both found nothing and both got a token (seen on
 * PostgreSQL, and across instances). For this model `find` claims the id atomically instead (insert-if-absent): the
 * first caller finds nothing and goes on to save the real record over its claim; every other caller finds the claim
 * and is refused as a replay. The claim lives until the save replaces its expiry (at most this long when it never does).
 */
const CLAIM_ON_FIND = 'ReplayDetection';
const REPLAY_CLAIM_SECONDS = 600;

function str(v: unknown): string | null {
  return typeof v === 'string' && v.length > 0 ? v : null;
}

export type SecretReader = (stored: string) => Promise<string | null>;

type AppSettingsRow = Pick<ServiceApp, 'client_type' | 'pkce_required' | 'client_credentials' | 'token_endpoint_auth_method'>;
type RedirectColumns = Pick<ServiceApp, 'url' | 'path' | 'redirect_uris' | 'post_logout_redirect_uris'>;

/** A stored JSON list of URIs, or null when the column is null or holds no list of strings. */
function storedList(text: string | null): string[] | null {
  if (text === null) return null;
  try {
    const v: unknown = JSON.parse(text);
    return Array.isArray(v) && v.every((x): x is string => typeof x === 'string') ? v : null;
  } catch {
    return null;
  }
}

/**
 * The registered redirect and post-logout URIs of a service app (issue 31.2). The first redirect URI is always url +
 * path: this release keeps the two in step, and a previous release running beside it during an upgrade changes only
 * url + path — which replaces the first entry, as `url`/`path` do in the admin API. A row without lists (written by a
 * previous release) has its one redirect URI and the post-logout URIs an app had before the lists.
 */
export function serviceAppRedirects(app: RedirectColumns): { redirect_uri: string; redirect_uris: string[]; post_logout_redirect_uris: string[] } {
  const first = serviceRedirectUri(app.url, app.path);
  const stored = storedList(app.redirect_uris);
  const redirect_uris = stored?.length ? [...new Set([first, ...stored.slice(1)])] : [first];
  const post_logout_redirect_uris = storedList(app.post_logout_redirect_uris) ?? legacyPostLogoutRedirectUris(app.url, first);
  return { redirect_uri: first, redirect_uris, post_logout_redirect_uris };
}

/** Grant types of a service app: code + refresh, and client_credentials when a confidential app has it on. */
export function serviceAppGrantTypes(app: Pick<AppSettingsRow, 'client_type' | 'client_credentials'>): string[] {
  return ['authorization_code', 'refresh_token', ...(app.client_type === 'confidential' && app.client_credentials === 1 ? ['client_credentials'] : [])];
}

/** Whether the app must send PKCE: always for public apps, by the app's setting for confidential ones. */
export const serviceAppPkceRequired = (app: Pick<AppSettingsRow, 'client_type' | 'pkce_required'>): boolean => app.client_type === 'public' || app.pkce_required !== 0;

/**
 * How the app authenticates at the token endpoint: `none` for public apps; a confidential app by its setting
 * (an unknown stored value falls back to the default, never to `none`).
 */
export function serviceAppAuthMethod(app: Pick<AppSettingsRow, 'client_type' | 'token_endpoint_auth_method'>): SecretAuthMethod | 'none' {
  if (app.client_type !== 'confidential') return 'none';
  return (SECRET_AUTH_METHODS as readonly string[]).includes(app.token_endpoint_auth_method) ? app.token_endpoint_auth_method : 'client_secret_basic';
}

/**
 * What an administrator configures in the app's OIDC software (shown on the admin service-app page).
 * `issuer` is the provider's issuer; discovery is at issuer + /.well-known/openid-configuration.
 */
export function serviceAppOidcSettings(issuer: string, app: AppSettingsRow, uris: { redirect_uris: string[]; post_logout_redirect_uris: string[] }) {
  return {
    issuer,
    discovery_url: `${issuer}/.well-known/openid-configuration`,
    redirect_uri: uris.redirect_uris[0] ?? '',
    redirect_uris: uris.redirect_uris,
    post_logout_redirect_uris: uris.post_logout_redirect_uris,
    token_endpoint_auth_method: serviceAppAuthMethod(app),
    grant_types: serviceAppGrantTypes(app),
    pkce_required: serviceAppPkceRequired(app),
  };
}

/** Builds the OIDC client metadata of a service app (client_id = name, its registered redirect and post-logout URIs). */
export async function serviceAppClient(db: Kysely<Database>, clientId: string, readSecret: SecretReader = async (v) => v): Promise<AdapterPayload | undefined> {
  const app = await db.selectFrom('service_apps').selectAll().where('name', '=', clientId).executeTakeFirst();
  if (!app) return undefined;
  const { redirect_uris, post_logout_redirect_uris } = serviceAppRedirects(app);
  const secret = app.client_type === 'confidential' && app.client_secret ? await readSecret(app.client_secret) : null;
  const confidential = app.client_type === 'confidential';
  // a confidential app whose secret is missing or unreadable is unusable, never downgraded to public
  if (confidential && !secret) return undefined;
  return {
    client_id: app.name,
    client_name: app.display_name,
    redirect_uris,
    post_logout_redirect_uris,
    grant_types: serviceAppGrantTypes(app),
    response_types: ['code'],
    [PKCE_METADATA]: serviceAppPkceRequired(app),
    ...(confidential
      ? { token_endpoint_auth_method: serviceAppAuthMethod(app), client_secret: secret ?? undefined }
      : { token_endpoint_auth_method: 'none' }),
  };
}

/**
 * oidc-provider Adapter over the `oidc_models` table (SQLite and PostgreSQL). One instance per model
 * name. `Client` reads service apps instead (static clients are configured separately).
 */
export function createAdapterClass(db: Kysely<Database>, readSecret?: SecretReader) {
  return class KyselyAdapter implements Adapter {
    constructor(readonly name: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      if (this.name === 'Client') throw new Error('clients are managed through service apps');
      const row = {
        model: this.name,
        id,
        payload: JSON.stringify(payload),
        grant_id: str(payload.grantId),
        account_id: str(payload.accountId),
        user_code: str(payload.userCode),
        uid: str(payload.uid),
        expires_at: expiresIn ? epoch() + expiresIn : null,
        consumed_at: typeof payload.consumed === 'number' ? payload.consumed : null,
      };
      await db
        .insertInto('oidc_models')
        .values(row)
        .onConflict((oc) =>
          oc.columns(['model', 'id']).doUpdateSet({
            payload: row.payload,
            grant_id: row.grant_id,
            account_id: row.account_id,
            user_code: row.user_code,
            uid: row.uid,
            expires_at: row.expires_at,
          }),
        )
        .execute();
    }

    private async findWhere(column: 'id' | 'uid' | 'user_code', value: string): Promise<AdapterPayload | undefined> {
      const row = await db
        .selectFrom('oidc_models')
        .select(['payload', 'expires_at', 'consumed_at'])
        .where('model', '=', this.name)
        .where(column, '=', value)
        .executeTakeFirst();
      if (!row) return undefined;
      if (row.expires_at !== null && Number(row.expires_at) <= epoch()) return undefined;
      const payload = JSON.parse(row.payload) as AdapterPayload;
      return row.consumed_at !== null ? { ...payload, consumed: Number(row.consumed_at) } : payload;
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      if (this.name === 'Client') return serviceAppClient(db, id, readSecret);
      if (this.name === CLAIM_ON_FIND) return this.claim(id);
      return this.findWhere('id', id);
    }

    /** Undefined when this caller is the first to ask for `id` (now claimed); otherwise what is stored (a replay). */
    private async claim(id: string): Promise<AdapterPayload | undefined> {
      const now = epoch();
      const claimRow = { payload: JSON.stringify({ claimed: now }), expires_at: now + REPLAY_CLAIM_SECONDS };
      const inserted = await db
        .insertInto('oidc_models')
        .values({ model: this.name, id, grant_id: null, account_id: null, user_code: null, uid: null, consumed_at: null, ...claimRow })
        .onConflict((oc) => oc.columns(['model', 'id']).doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) return undefined;
      // a row past its expiry that the cleanup has not removed yet counts as unseen: taken over, as atomically
      const taken = await db
        .updateTable('oidc_models')
        .set(claimRow)
        .where('model', '=', this.name)
        .where('id', '=', id)
        .where('expires_at', '<=', now)
        .executeTakeFirst();
      if (Number(taken.numUpdatedRows) === 1) return undefined;
      return (await this.findWhere('id', id)) ?? { claimed: now };
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      return this.findWhere('uid', uid);
    }

    async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      return this.findWhere('user_code', userCode);
    }

    /**
     * Marks the artefact consumed, atomically. When a single-use artefact (code, refresh token) was
     * consumed already — a concurrent use of the same token — the whole grant is revoked and the
     * request fails with invalid_grant, so at most one of N parallel uses wins and the grant dies.
     */
    async consume(id: string): Promise<void> {
      const res = await db
        .updateTable('oidc_models')
        .set({ consumed_at: epoch() })
        .where('model', '=', this.name)
        .where('id', '=', id)
        .where('consumed_at', 'is', null)
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) === 0 && SINGLE_USE.has(this.name)) {
        const row = await db.selectFrom('oidc_models').select('grant_id').where('model', '=', this.name).where('id', '=', id).executeTakeFirst();
        if (row?.grant_id) await revokeGrantRows(db, row.grant_id);
        throw new errors.InvalidGrant(`${this.name === 'RefreshToken' ? 'refresh token' : 'grant'} already used`);
      }
    }

    async destroy(id: string): Promise<void> {
      await db.deleteFrom('oidc_models').where('model', '=', this.name).where('id', '=', id).execute();
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await db.deleteFrom('oidc_models').where('model', '=', this.name).where('grant_id', '=', grantId).execute();
    }
  };
}

/** Deletes a grant and every artefact issued under it. */
export async function revokeGrantRows(db: Kysely<Database>, grantId: string): Promise<void> {
  await db
    .deleteFrom('oidc_models')
    .where((eb) => eb.or([eb('grant_id', '=', grantId), eb.and([eb('model', '=', 'Grant'), eb('id', '=', grantId)])]))
    .execute();
}

/** Whether a grant row exists and has not expired. */
export async function grantAlive(db: Kysely<Database>, grantId: string): Promise<boolean> {
  const row = await db.selectFrom('oidc_models').select('expires_at').where('model', '=', 'Grant').where('id', '=', grantId).executeTakeFirst();
  return !!row && (row.expires_at === null || Number(row.expires_at) > epoch());
}

/** Deletes expired rows (and consumed ones past their expiry). Returns the number deleted. */
export async function cleanupExpired(db: Kysely<Database>): Promise<number> {
  const res = await db.deleteFrom('oidc_models').where('expires_at', 'is not', null).where('expires_at', '<=', epoch()).executeTakeFirst();
  return Number(res.numDeletedRows);
}
