import { createCipheriv, createDecipheriv, randomBytes, randomUUID } from 'node:crypto';
import type { ServiceApp as ServiceAppRow } from '../../db/schema';
import type { ClientType, SecretAuthMethod, ServiceApp, ServiceAppWithSecret } from '../../../contract/admin/service-apps';
import { serviceAppAuthMethod, serviceAppOidcSettings, serviceAppRedirects } from '../../oidc/adapter';
import { serviceRedirectUri } from '../../../contract/domain/formats';
import {
  legacyPostLogoutRedirectUris,
  POST_LOGOUT_REDIRECT_URIS_MAX,
  redirectUriListIssues,
  REDIRECT_URI_MAX_LENGTH,
  REDIRECT_URIS_MAX,
  REDIRECT_URIS_MIN,
  splitRedirectUri,
} from '../../../contract/domain/redirect-uris';
import type { FieldErrors } from '../../errors';
import { nowIso } from '../../db/index';
import { AppError } from '../../errors';
import { recordAudit } from './audit';
import { checkRoleIds, isUniqueViolation } from './catalog';
import type { Actor, Deps, Queries } from '../deps';

/**
 * Service apps are OIDC clients (client_id = name). Confidential clients get a random secret, returned once;
 * `service_apps.client_secret` stores it AES-256-GCM encrypted (`enc:v1:<iv>:<tag>:<ciphertext>`, base64url) with
 * a key kept in app_settings (`service_app_secret_key`). The OIDC adapter reads the plaintext through
 * `getClientSecret(app, serviceApp)` (oidc-provider needs it for client_secret_basic/post).
 */
export const RESERVED_CLIENT_IDS = ['portal', 'admin-console'];
const KEY_SETTING = 'service_app_secret_key';

async function secretKey(db: Queries): Promise<Buffer> {
  const row = await db.selectFrom('app_settings').select('value').where('key', '=', KEY_SETTING).executeTakeFirst();
  if (row) return Buffer.from(row.value, 'base64url');
  const key = randomBytes(32).toString('base64url');
  await db.insertInto('app_settings').values({ key: KEY_SETTING, value: key, updated_at: nowIso() }).onConflict((oc) => oc.column('key').doNothing()).execute();
  // another instance may have won the race
  const again = await db.selectFrom('app_settings').select('value').where('key', '=', KEY_SETTING).executeTakeFirstOrThrow();
  return Buffer.from(again.value, 'base64url');
}

export async function encryptSecret(db: Queries, plain: string): Promise<string> {
  const key = await secretKey(db);
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', key, iv);
  const ct = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
  return ['enc', 'v1', iv.toString('base64url'), c.getAuthTag().toString('base64url'), ct.toString('base64url')].join(':');
}

/** Plaintext client secret of a confidential service app, or null (public client). `deps` may be the app itself. */
export async function getClientSecret(deps: Pick<Deps, 'db'>, serviceApp: Pick<ServiceAppRow, 'client_secret'>): Promise<string | null> {
  const stored = serviceApp.client_secret;
  if (!stored) return null;
  const parts = stored.split(':');
  if (parts[0] !== 'enc' || parts[1] !== 'v1' || parts.length !== 5) return stored;
  const key = await secretKey(deps.db.kysely);
  const d = createDecipheriv('aes-256-gcm', key, Buffer.from(parts[2] ?? '', 'base64url'));
  d.setAuthTag(Buffer.from(parts[3] ?? '', 'base64url'));
  return Buffer.concat([d.update(Buffer.from(parts[4] ?? '', 'base64url')), d.final()]).toString('utf8');
}

/** A service app as the service reads it: the contract's answer without the OIDC settings (added by `withOidc`) and the secret. */
export type ServiceAppView = Omit<ServiceApp, 'oidc' | 'client_secret'>;

async function serviceAppViews(db: Queries, ids: string[]): Promise<ServiceAppView[]> {
  if (!ids.length) return [];
  const apps = await db.selectFrom('service_apps').selectAll().where('id', 'in', ids).orderBy('name').execute();
  const roles = await db
    .selectFrom('service_app_roles as sar')
    .innerJoin('roles as r', 'r.id', 'sar.role_id')
    .select(['sar.service_app_id', 'r.id', 'r.name'])
    .where('sar.service_app_id', 'in', ids)
    .orderBy('r.name')
    .execute();
  // the logout tokens waiting or given up, per app (server/oidc/backchannel-logout.ts)
  const queued = await db
    .selectFrom('logout_deliveries')
    .select(['service_app_id', 'status', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('service_app_id', 'in', ids)
    .groupBy(['service_app_id', 'status'])
    .execute();
  const countOf = (id: string, status: 'pending' | 'failed') => Number(queued.find((q) => q.service_app_id === id && q.status === status)?.n ?? 0);
  return apps.map((a) => ({
    id: a.id,
    name: a.name,
    display_name: a.display_name,
    ...(({ redirect_uris, post_logout_redirect_uris }) => ({ redirect_uris, post_logout_redirect_uris }))(serviceAppRedirects(a)),
    url: a.url,
    path: a.path,
    client_type: a.client_type,
    pkce_required: a.client_type === 'public' || a.pkce_required !== 0,
    client_credentials: a.client_type === 'confidential' && a.client_credentials === 1,
    token_endpoint_auth_method: serviceAppAuthMethod(a),
    initiate_login_uri: a.initiate_login_uri,
    backchannel_logout_uri: a.backchannel_logout_uri,
    backchannel_logout_session_required: a.backchannel_logout_session_required === 1,
    logout_delivery: {
      pending: countOf(a.id, 'pending'),
      failed: countOf(a.id, 'failed'),
      last_delivered_at: a.backchannel_delivered_at,
      last_failure: a.backchannel_failed_at ? { at: a.backchannel_failed_at, error: a.backchannel_error ?? 'network' } : null,
    },
    roles: roles.filter((r) => r.service_app_id === a.id).map((r) => ({ id: r.id, name: r.name })),
    created_at: a.created_at,
    updated_at: a.updated_at,
  }));
}

async function requireServiceApp(db: Queries, id: string): Promise<ServiceAppView> {
  const [v] = await serviceAppViews(db, [id]);
  if (!v) throw new AppError(404, 'service_app_not_found');
  return v;
}

async function listServiceApps(db: Queries, search: string | undefined, page: number, size: number) {
  let q = db.selectFrom('service_apps');
  if (search) q = q.where((eb) => eb.or([eb('name', 'like', `%${search.toLowerCase()}%`), eb('display_name', 'like', `%${search}%`)]));
  const total = Number((await q.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow()).n);
  const ids = (await q.select('id').orderBy('name').limit(size).offset((page - 1) * size).execute()).map((r) => r.id);
  return { rows: await serviceAppViews(db, ids), total };
}

const nameTaken = () => new AppError(409, 'name_taken', { fields: { name: ['name_taken'] } });
const newSecret = () => randomBytes(32).toString('base64url');

interface ServiceAppInput {
  name: string;
  display_name: string;
  redirect_uris?: string[] | undefined;
  post_logout_redirect_uris?: string[] | undefined;
  url?: string | undefined;
  path?: string | undefined;
  role_ids: string[];
  client_type?: ClientType | undefined;
  pkce_required?: boolean | undefined;
  client_credentials?: boolean | undefined;
  token_endpoint_auth_method?: SecretAuthMethod | undefined;
  initiate_login_uri?: string | null | undefined;
  backchannel_logout_uri?: string | null | undefined;
  backchannel_logout_session_required?: boolean | undefined;
}

const confidentialOnly = (field: 'pkce_required' | 'client_credentials' | 'token_endpoint_auth_method') => new AppError(422, 'validation_failed', { fields: { [field]: ['confidential_only'] } });

/**
 * The per-app OIDC flags for `clientType`: a public app always needs PKCE, cannot use client_credentials
 * and authenticates with `none`; asking for any of these explicitly is a 422, a change to public resets them.
 */
function oidcFlags(
  clientType: ClientType,
  input: Pick<ServiceAppInput, 'pkce_required' | 'client_credentials' | 'token_endpoint_auth_method'>,
  before?: Pick<ServiceAppView, 'pkce_required' | 'client_credentials' | 'token_endpoint_auth_method'>,
) {
  if (clientType === 'public') {
    if (input.pkce_required === false) throw confidentialOnly('pkce_required');
    if (input.client_credentials === true) throw confidentialOnly('client_credentials');
    if (input.token_endpoint_auth_method !== undefined) throw confidentialOnly('token_endpoint_auth_method');
    return { pkce_required: 1, client_credentials: 0, token_endpoint_auth_method: 'client_secret_basic' as const };
  }
  const beforeMethod = before?.token_endpoint_auth_method === 'none' ? undefined : before?.token_endpoint_auth_method;
  return {
    pkce_required: (input.pkce_required ?? before?.pkce_required ?? true) ? 1 : 0,
    client_credentials: (input.client_credentials ?? before?.client_credentials ?? false) ? 1 : 0,
    token_endpoint_auth_method: input.token_endpoint_auth_method ?? beforeMethod ?? 'client_secret_basic',
  };
}

interface ResolvedUris {
  redirect: string[];
  postLogout: string[];
  /** url + path as an older client sent them (stored as sent), when it did */
  legacy?: { url: string; path: string };
}

/**
 * The stored columns of an app's URIs: the lists as JSON; url + path (which older releases read) as the older client
 * sent them, else the app's own while its first URI stays the same, else the first URI split after its host.
 */
function uriColumns(uris: ResolvedUris, before?: Pick<ServiceAppView, 'url' | 'path'>) {
  const first = uris.redirect[0] as string;
  const { url, path } = uris.legacy ?? (before && serviceRedirectUri(before.url, before.path) === first ? before : splitRedirectUri(first));
  return { url, path, redirect_uris: JSON.stringify(uris.redirect), post_logout_redirect_uris: JSON.stringify(uris.postLogout) };
}

const refused = (fields: FieldErrors) => new AppError(422, 'validation_failed', { fields, params: { size: REDIRECT_URI_MAX_LENGTH + 1 } });

/**
 * The app's redirect and post-logout URIs after a create (no `before`) or an update, checked: `redirect_uris` and
 * `post_logout_redirect_uris` replace the lists; `url`/`path` (older clients) are the first redirect URI — on their own
 * they replace it, beside `redirect_uris` they must equal its first entry. An app made through url + path alone keeps
 * the post-logout URIs such apps always had (the bare url, with and without a slash, and the redirect URI), and they
 * follow a change of url + path as long as nobody set the list. URIs the app has registered already pass unchecked
 * (a rule added later does not block an edit of something else); every other entry is checked (redirectUriListIssues).
 * Throws 422 with a field code per entry (`redirect_uris.N`; `url`/`path` for the URI they make). Returns undefined
 * when the input changes no URI.
 */
function resolveUris(input: Pick<ServiceAppInput, 'redirect_uris' | 'post_logout_redirect_uris' | 'url' | 'path'>, before?: ServiceAppView): ResolvedUris | undefined {
  const viaUrl = input.url !== undefined || input.path !== undefined;
  if (before && !viaUrl && input.redirect_uris === undefined && input.post_logout_redirect_uris === undefined) return undefined;
  let legacy: { url: string; path: string } | undefined;
  if (viaUrl) {
    const url = input.url ?? before?.url;
    const path = input.path ?? before?.path;
    if (url === undefined || path === undefined) throw refused(url === undefined ? { url: ['required'] } : { path: ['required'] });
    legacy = { url, path };
  } else if (!before && input.redirect_uris === undefined) throw refused({ redirect_uris: ['required'] });
  const legacyFirst = legacy ? serviceRedirectUri(legacy.url, legacy.path) : undefined;
  if (legacyFirst !== undefined && input.redirect_uris !== undefined && legacyFirst !== input.redirect_uris[0]) throw refused({ url: ['uri_conflict'] });

  const redirect =
    input.redirect_uris ??
    (legacyFirst !== undefined ? [legacyFirst, ...(before?.redirect_uris.slice(1) ?? [])].filter((u, i, all) => all.indexOf(u) === i) : (before?.redirect_uris ?? []));
  let postLogout = input.post_logout_redirect_uris ?? before?.post_logout_redirect_uris ?? [];
  if (input.post_logout_redirect_uris === undefined && legacy && legacyFirst !== undefined && input.redirect_uris === undefined) {
    // made or changed through url + path: the post-logout URIs follow them unless someone set the list
    const untouched = !before || sameList(before.post_logout_redirect_uris, legacyPostLogoutRedirectUris(before.url, serviceRedirectUri(before.url, before.path)));
    if (untouched) postLogout = legacyPostLogoutRedirectUris(legacy.url, legacyFirst);
  }

  const fields: FieldErrors = {};
  const check = (name: 'redirect_uris' | 'post_logout_redirect_uris', list: string[], min: number, max: number, registered: string[] | undefined, firstFromUrl: boolean) => {
    for (const issue of redirectUriListIssues(list, { min, max, registered: new Set(registered ?? []) })) {
      // the URI url + path make is reported on the field the older client sent
      const urlField = issue.code === 'uri_wildcard' && (input.path ?? '').includes('*') ? 'path' : 'url';
      const field = issue.index === null ? name : firstFromUrl && issue.index === 0 ? urlField : `${name}.${issue.index}`;
      (fields[field] ??= []).push(issue.code);
    }
  };
  check('redirect_uris', redirect, REDIRECT_URIS_MIN, REDIRECT_URIS_MAX, before?.redirect_uris, input.redirect_uris === undefined && legacy !== undefined);
  check('post_logout_redirect_uris', postLogout, 0, POST_LOGOUT_REDIRECT_URIS_MAX, before?.post_logout_redirect_uris, false);
  // a too_long entry here is a URI made of url + path (each entry of a list is limited by the contract already)
  if (Object.keys(fields).length) throw refused(fields);
  return { redirect, postLogout, ...(legacy ? { legacy } : {}) };
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

async function createServiceApp(deps: ServiceAppsDeps, actor: Actor, input: ServiceAppInput): Promise<ServiceAppView & { client_secret: string | null }> {
  const db = deps.db.kysely;
  if (RESERVED_CLIENT_IDS.includes(input.name)) throw new AppError(422, 'validation_failed', { fields: { name: ['name_reserved'] } });
  const uris = resolveUris(input) as ResolvedUris;
  await checkRoleIds(db, input.role_ids);
  const clientType = input.client_type ?? 'public';
  const flags = oidcFlags(clientType, input);
  const secret = clientType === 'confidential' ? newSecret() : null;
  const now = deps.clock.nowIso();
  const row = {
    id: randomUUID(),
    name: input.name,
    display_name: input.display_name,
    ...uriColumns(uris),
    client_type: clientType,
    client_secret: secret ? await encryptSecret(db, secret) : null,
    ...flags,
    initiate_login_uri: input.initiate_login_uri ?? null,
    backchannel_logout_uri: input.backchannel_logout_uri ?? null,
    backchannel_logout_session_required: input.backchannel_logout_session_required ? 1 : 0,
    created_at: now,
    updated_at: now,
  };
  try {
    await db.transaction().execute(async (trx) => {
      if (await trx.selectFrom('service_apps').select('id').where('name', '=', row.name).executeTakeFirst()) throw nameTaken();
      await trx.insertInto('service_apps').values(row).execute();
      const roleIds = [...new Set(input.role_ids)];
      if (roleIds.length) await trx.insertInto('service_app_roles').values(roleIds.map((r) => ({ service_app_id: row.id, role_id: r }))).execute();
      await recordAudit(trx, actor, 'service_app.create', 'service_app', row.id, null, { ...row, role_ids: roleIds }, deps.clock.nowIso());
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw nameTaken();
    throw err;
  }
  return { ...(await requireServiceApp(db, row.id)), client_secret: secret };
}

async function updateServiceApp(deps: ServiceAppsDeps, actor: Actor, id: string, input: ServiceAppPatch): Promise<ServiceAppView & { client_secret: string | null }> {
  const db = deps.db.kysely;
  if (input.name && RESERVED_CLIENT_IDS.includes(input.name)) throw new AppError(422, 'validation_failed', { fields: { name: ['name_reserved'] } });
  if (input.role_ids) await checkRoleIds(db, input.role_ids);
  let secret: string | null = null;
  try {
    await db.transaction().execute(async (trx) => {
      const before = await requireServiceApp(trx, id);
      if (input.name && input.name !== before.name && (await trx.selectFrom('service_apps').select('id').where('name', '=', input.name).executeTakeFirst())) throw nameTaken();
      const clientType = input.client_type ?? before.client_type;
      const patch: Record<string, string | number | null> = {};
      for (const k of ['name', 'display_name'] as const) if (input[k] !== undefined) patch[k] = input[k] ?? null;
      const uris = resolveUris(input, before);
      if (uris) Object.assign(patch, uriColumns(uris, before));
      patch.client_type = clientType;
      Object.assign(patch, oidcFlags(clientType, input, before));
      if (input.initiate_login_uri !== undefined) patch.initiate_login_uri = input.initiate_login_uri;
      if (input.backchannel_logout_uri !== undefined) patch.backchannel_logout_uri = input.backchannel_logout_uri;
      if (input.backchannel_logout_session_required !== undefined) patch.backchannel_logout_session_required = input.backchannel_logout_session_required ? 1 : 0;
      if (clientType === 'public') patch.client_secret = null;
      else if (before.client_type === 'public' || input.regenerate_secret) {
        secret = newSecret();
        patch.client_secret = await encryptSecret(trx, secret);
      }
      await trx.updateTable('service_apps').set({ ...patch, updated_at: deps.clock.nowIso() }).where('id', '=', id).execute();
      if (input.role_ids) {
        await trx.deleteFrom('service_app_roles').where('service_app_id', '=', id).execute();
        const roleIds = [...new Set(input.role_ids)];
        if (roleIds.length) await trx.insertInto('service_app_roles').values(roleIds.map((r) => ({ service_app_id: id, role_id: r }))).execute();
      }
      await recordAudit(trx, actor, 'service_app.update', 'service_app', id, before, { ...patch, ...(input.role_ids ? { role_ids: input.role_ids } : {}), secret_rotated: secret !== null }, deps.clock.nowIso());
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw nameTaken();
    throw err;
  }
  return { ...(await requireServiceApp(db, id)), client_secret: secret };
}

async function deleteServiceApp(deps: ServiceAppsDeps, actor: Actor, id: string): Promise<void> {
  await deps.db.kysely.transaction().execute(async (trx) => {
    const before = await requireServiceApp(trx, id);
    await trx.deleteFrom('service_apps').where('id', '=', id).execute();
    await recordAudit(trx, actor, 'service_app.delete', 'service_app', id, before, null, deps.clock.nowIso());
  });
}

type ServiceAppsDeps = Pick<Deps, 'db' | 'clock' | 'config'>;
type ServiceAppPatch = Partial<ServiceAppInput> & { regenerate_secret?: boolean | undefined };
type ListQuery = { search?: string | undefined; page: number; size: number };

/** The answer shape: the view plus what to configure in the app's OIDC software (issuer from the configuration). */
function withOidc<T extends ServiceAppView>(issuer: string, v: T): T & { oidc: ServiceAppWithSecret['oidc'] } {
  const row = {
    ...v,
    pkce_required: v.pkce_required ? 1 : 0,
    client_credentials: v.client_credentials ? 1 : 0,
    token_endpoint_auth_method: v.token_endpoint_auth_method === 'none' ? ('client_secret_basic' as const) : v.token_endpoint_auth_method,
  };
  return { ...v, oidc: serviceAppOidcSettings(issuer, row, v) };
}

/** Service apps (contract/admin/service-apps.ts): every change is audited in its own transaction. */
export function createServiceAppsService(deps: ServiceAppsDeps) {
  const db = () => deps.db.kysely;
  const oidc = <T extends ServiceAppView>(v: T) => withOidc(deps.config.issuer, v);
  return {
    async list(q: ListQuery) {
      const { rows, total } = await listServiceApps(db(), q.search, q.page, q.size);
      return { rows: rows.map(oidc), total };
    },
    get: async (id: string) => oidc(await requireServiceApp(db(), id)),
    create: async (actor: Actor, input: ServiceAppInput) => oidc(await createServiceApp(deps, actor, input)),
    update: async (actor: Actor, id: string, input: ServiceAppPatch) => oidc(await updateServiceApp(deps, actor, id, input)),
    async delete(actor: Actor, id: string) {
      await deleteServiceApp(deps, actor, id);
      return { id, deleted: true as const };
    },
  };
}
export type ServiceAppsService = ReturnType<typeof createServiceAppsService>;
