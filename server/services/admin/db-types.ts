/**
 * Tables added by migration 0003_admin_search (kept here, merged into `Database`, so server/db/schema.ts stays
 * the core's file).
 */
export interface ImportJobsTable {
  id: string;
  actor_id: string | null;
  status: 'queued' | 'running' | 'done' | 'failed';
  dry_run: number;
  send_invitations: number;
  total: number;
  processed: number;
  created: number;
  skipped_count: number;
  failed_count: number;
  report: string | null;
  error_code: string | null;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
  /** instance running the job (server/services/admin/import.ts INSTANCE_ID); null when not running */
  owner: string | null;
  heartbeat_at: string | null;
  /** epoch ms; past = the owner is gone */
  lease_until: number;
}

export interface AccountCountersTable {
  type: string;
  n: number;
}

declare module '../../db/schema' {
  interface Database {
    import_jobs: ImportJobsTable;
    account_counters: AccountCountersTable;
  }
}
