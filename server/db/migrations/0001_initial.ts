import { type Kysely, sql } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not depend on current types */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('accounts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull().check(sql`type in ('user','admin')`))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('email_normalized', 'text', (c) => c.notNull())
    .addColumn('first_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('last_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('phone', 'text')
    .addColumn('locale', 'text', (c) => c.notNull().defaultTo('en'))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('ACTIVE').check(sql`status in ('ACTIVE','INACTIVE')`))
    .addColumn('auth_type', 'text', (c) => c.notNull().defaultTo('CREDENTIALS').check(sql`auth_type in ('CREDENTIALS','SSO')`))
    .addColumn('provider', 'text')
    .addColumn('provider_subject', 'text')
    .addColumn('technical', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('admin_role', 'text', (c) => c.check(sql`admin_role is null or admin_role in ('super_admin','manager')`))
    .addColumn('avatar', 'text')
    .addColumn('password_hash', 'text')
    .addColumn('password_changed_at', 'text')
    .addColumn('email_verified_at', 'text')
    .addColumn('created_by', 'text', (c) => c.references('accounts.id').onDelete('set null'))
    .addColumn('two_factor_method', 'text')
    .addColumn('two_factor_secret', 'text')
    .addColumn('two_factor_confirmed_at', 'text')
    .addColumn('two_factor_last_step', 'bigint')
    .addColumn('api_key_hash', 'text')
    .addColumn('api_key_prefix', 'text')
    .addColumn('api_key_created_at', 'text')
    .addColumn('search_text', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('accounts_type_email_uq').on('accounts').columns(['type', 'email_normalized']).unique().execute();
  // list ordering (newest first, id as tie-breaker) and filters, all scoped by type
  await db.schema.createIndex('accounts_type_created_idx').on('accounts').columns(['type', 'created_at', 'id']).execute();
  await db.schema.createIndex('accounts_type_status_created_idx').on('accounts').columns(['type', 'status', 'created_at', 'id']).execute();
  await db.schema.createIndex('accounts_type_locale_created_idx').on('accounts').columns(['type', 'locale', 'created_at', 'id']).execute();
  await db.schema.createIndex('accounts_type_auth_created_idx').on('accounts').columns(['type', 'auth_type', 'created_at', 'id']).execute();
  await db.schema.createIndex('accounts_type_technical_created_idx').on('accounts').columns(['type', 'technical', 'created_at', 'id']).execute();
  await db.schema.createIndex('accounts_type_last_name_idx').on('accounts').columns(['type', 'last_name', 'first_name']).execute();
  await db.schema.createIndex('accounts_api_key_idx').on('accounts').column('api_key_hash').execute();
  await db.schema.createIndex('accounts_provider_idx').on('accounts').columns(['provider', 'provider_subject']).execute();

  await db.schema
    .createTable('roles')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('subscriptions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('subscription_roles')
    .addColumn('subscription_id', 'text', (c) => c.notNull().references('subscriptions.id').onDelete('cascade'))
    .addColumn('role_id', 'text', (c) => c.notNull().references('roles.id').onDelete('restrict'))
    .addPrimaryKeyConstraint('subscription_roles_pk', ['subscription_id', 'role_id'])
    .execute();
  await db.schema.createIndex('subscription_roles_role_idx').on('subscription_roles').column('role_id').execute();

  await db.schema
    .createTable('role_subscriptions')
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('subscription_id', 'text', (c) => c.notNull())
    .addColumn('role_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('role_subscriptions_pk', ['account_id', 'subscription_id', 'role_id'])
    .addForeignKeyConstraint('role_subscriptions_sr_fk', ['subscription_id', 'role_id'], 'subscription_roles', ['subscription_id', 'role_id'], (fk) => fk.onDelete('cascade'))
    .execute();
  await db.schema.createIndex('role_subscriptions_role_idx').on('role_subscriptions').columns(['role_id', 'account_id']).execute();
  await db.schema.createIndex('role_subscriptions_sub_idx').on('role_subscriptions').columns(['subscription_id', 'role_id']).execute();

  await db.schema
    .createTable('service_apps')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('client_type', 'text', (c) => c.notNull().defaultTo('public').check(sql`client_type in ('public','confidential')`))
    .addColumn('client_secret', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('service_app_roles')
    .addColumn('service_app_id', 'text', (c) => c.notNull().references('service_apps.id').onDelete('cascade'))
    .addColumn('role_id', 'text', (c) => c.notNull().references('roles.id').onDelete('restrict'))
    .addPrimaryKeyConstraint('service_app_roles_pk', ['service_app_id', 'role_id'])
    .execute();
  await db.schema.createIndex('service_app_roles_role_idx').on('service_app_roles').column('role_id').execute();

  await db.schema
    .createTable('auth_activities')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('client_id', 'text')
    .addColumn('session_ref', 'text')
    .addColumn('logged_in_at', 'text', (c) => c.notNull())
    .addColumn('logged_out_at', 'text')
    .addColumn('ip_address', 'text')
    .addColumn('origin', 'text')
    .addColumn('user_agent', 'text')
    .execute();
  await db.schema.createIndex('auth_activities_account_idx').on('auth_activities').columns(['account_id', 'logged_in_at']).execute();
  await db.schema.createIndex('auth_activities_time_idx').on('auth_activities').columns(['logged_in_at', 'id']).execute();
  await db.schema.createIndex('auth_activities_session_idx').on('auth_activities').column('session_ref').execute();

  await db.schema
    .createTable('error_logs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('error_code', 'text', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('user_email', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('error_logs_time_idx').on('error_logs').columns(['created_at', 'id']).execute();
  await db.schema.createIndex('error_logs_code_idx').on('error_logs').columns(['error_code', 'created_at']).execute();
  await db.schema.createIndex('error_logs_email_idx').on('error_logs').columns(['user_email', 'created_at']).execute();

  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('actor_id', 'text')
    .addColumn('actor_email', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target_type', 'text', (c) => c.notNull())
    .addColumn('target_id', 'text')
    .addColumn('before', 'text')
    .addColumn('after', 'text')
    .addColumn('ip_address', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('audit_log_time_idx').on('audit_log').columns(['created_at', 'id']).execute();
  await db.schema.createIndex('audit_log_actor_idx').on('audit_log').columns(['actor_id', 'created_at']).execute();
  await db.schema.createIndex('audit_log_target_idx').on('audit_log').columns(['target_type', 'target_id', 'created_at']).execute();

  await db.schema
    .createTable('oidc_models')
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('grant_id', 'text')
    .addColumn('user_code', 'text')
    .addColumn('uid', 'text')
    .addColumn('expires_at', 'bigint')
    .addColumn('consumed_at', 'bigint')
    .addPrimaryKeyConstraint('oidc_models_pk', ['model', 'id'])
    .execute();
  await db.schema.createIndex('oidc_models_grant_idx').on('oidc_models').column('grant_id').execute();
  await db.schema.createIndex('oidc_models_uid_idx').on('oidc_models').columns(['model', 'uid']).execute();
  await db.schema.createIndex('oidc_models_user_code_idx').on('oidc_models').columns(['model', 'user_code']).execute();
  await db.schema.createIndex('oidc_models_expires_idx').on('oidc_models').column('expires_at').execute();

  await db.schema
    .createTable('signing_keys')
    .addColumn('kid', 'text', (c) => c.primaryKey())
    .addColumn('alg', 'text', (c) => c.notNull())
    .addColumn('private_jwk', 'text', (c) => c.notNull())
    .addColumn('public_jwk', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('active','previous','retired')`))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('rotated_at', 'text')
    .execute();

  await db.schema
    .createTable('one_time_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.references('accounts.id').onDelete('cascade'))
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('one_time_tokens_account_idx').on('one_time_tokens').columns(['account_id', 'purpose']).execute();

  await db.schema
    .createTable('recovery_codes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('recovery_codes_account_idx').on('recovery_codes').column('account_id').execute();

  await db.schema
    .createTable('otp_challenges')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('interaction_uid', 'text')
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('sent_at', 'text', (c) => c.notNull())
    .addColumn('consumed_at', 'text')
    .execute();
  await db.schema.createIndex('otp_challenges_account_idx').on('otp_challenges').columns(['account_id', 'purpose', 'sent_at']).execute();

  await db.schema
    .createTable('rate_counters')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('reset_at', 'bigint', (c) => c.notNull())
    .addColumn('locked_until', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('app_settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [
    'app_settings', 'rate_counters', 'otp_challenges', 'recovery_codes', 'one_time_tokens', 'signing_keys',
    'oidc_models', 'audit_log', 'error_logs', 'auth_activities', 'service_app_roles', 'service_apps',
    'role_subscriptions', 'subscription_roles', 'subscriptions', 'roles', 'accounts',
  ]) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
