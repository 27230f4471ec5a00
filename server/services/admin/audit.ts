import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { nowIso } from '../../db/index';
import type { Actor } from '../deps';

const SECRET_KEY_RE = /(password|secret|hash|token|api_key|recovery|two_factor_secret|code_verifier)/i;

/** Deep copy without secrets, hashes or tokens; safe to store in the audit trail. */
export function redact(value: unknown): unknown {
  if (value === null || value === undefined) return value ?? null;
  if (Array.isArray(value)) return value.map(redact);
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      if (SECRET_KEY_RE.test(k)) continue;
      out[k] = redact(v);
    }
    return out;
  }
  return value;
}

/**
 * Records an admin change (who, what, before/after, when). Run it on the transaction of the change so the
 * entry is committed, or rolled back, with it.
 */
export async function recordAudit(
  db: Kysely<Database>,
  actor: Actor,
  action: string,
  targetType: string,
  targetId: string | null,
  before: unknown,
  after: unknown,
  now: string = nowIso(),
): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      id: randomUUID(),
      actor_id: actor.id,
      actor_email: actor.email,
      action,
      target_type: targetType,
      target_id: targetId,
      before: before === null || before === undefined ? null : JSON.stringify(redact(before)),
      after: after === null || after === undefined ? null : JSON.stringify(redact(after)),
      ip_address: actor.ip,
      created_at: now,
    })
    .execute();
}

