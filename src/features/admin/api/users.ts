import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiBlob } from '../../../api';
import { call, upload } from '../../../api/call';
import { pathOf, type BodyOf } from '../../../../contract/endpoint';
import type * as usersContract from '../../../../contract/admin/users';
import { BULK_MAX_IDS, USER_RELATIONS as RELATIONS } from '../../../../contract/domain/lists';
// method and path only: the contract's area modules build their zod schemas on import (contract/routes-admin.ts)
import { account } from '../../../../contract/routes';
import { adminImport as csv, adminUsers as users } from '../../../../contract/routes-admin';
import type { ImportAccepted, ImportReport } from '../../../../contract/admin/import';
import { adminKeys, compactQuery } from './keys';

/** Every relation the user page shows (`?with=`). */
export const USER_RELATIONS = RELATIONS.join(',');

/** A page of the user list with its filters (the filters are the contract's). */
export type UserFilters = usersContract.UserFilters & {
  page: number;
  size: number;
  sort?: usersContract.UserSort | undefined;
  /** keyset cursor of this page (next_cursor / prev_cursor of the page the admin came from) */
  cursor?: string | undefined;
  /** 'exact': count every match instead of stopping at USER_COUNT_EXACT_BELOW */
  count?: 'exact' | undefined;
};

/** The list filters without paging (for export). */
export type UserExportFilters = Omit<UserFilters, 'page' | 'size' | 'cursor' | 'count'>;

export function usersQueryOptions(filters: UserFilters) {
  const query = compactQuery(filters);
  return queryOptions({
    queryKey: adminKeys.userList(query),
    queryFn: ({ signal }) => call(users.listUsers, { query }, { signal }),
    placeholderData: keepPreviousData,
  });
}

export function userQueryOptions(id: string) {
  return queryOptions({
    queryKey: adminKeys.user(id),
    queryFn: ({ signal }) => call(users.getUser, { params: { id }, query: { with: USER_RELATIONS } }, { signal }).then((r) => r.data),
  });
}

export type CreateUserInput = BodyOf<typeof usersContract.createUser>;
export type UpdateUserInput = BodyOf<typeof usersContract.updateUser>;

export function useCreateUser() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateUserInput) => call(users.createUser, { body: input }).then((r) => r.data),
    onSuccess: () => qc.invalidateQueries({ queryKey: adminKeys.users() }),
  });
}

export function useUpdateUser(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: UpdateUserInput) => call(users.updateUser, { params: { id }, body: input }).then((r) => r.data),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: adminKeys.users() });
    },
  });
}

export function useDeleteUser() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(users.deleteUser, { params: { id } }),
    onSuccess: (_data, id) => {
      qc.removeQueries({ queryKey: adminKeys.user(id) });
      return qc.invalidateQueries({ queryKey: adminKeys.users() });
    },
  });
}

export type BulkInput = BodyOf<typeof usersContract.bulkUsers>;

/**
 * Runs a bulk action over any number of users in requests of BULK_MAX_IDS, reporting progress after each; every row's
 * result comes from the server (applied entirely or not at all).
 */
export function useBulkUsers() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async ({ input, onProgress }: { input: BulkInput; onProgress: (done: number, results: usersContract.BulkResult[]) => void }) => {
      const results: usersContract.BulkResult[] = [];
      for (let i = 0; i < input.ids.length; i += BULK_MAX_IDS) {
        const chunk = input.ids.slice(i, i + BULK_MAX_IDS);
        const answer = await call(users.bulkUsers, { body: { ...input, ids: chunk } });
        results.push(...answer.data.results);
        onProgress(results.length, [...results]);
      }
      return results;
    },
    onSettled: () => qc.invalidateQueries({ queryKey: adminKeys.users() }),
  });
}

/**
 * Signs a user out everywhere (POST /api/admin/users/:id/end-sessions): every session and grant ends, the service apps
 * with a back-channel logout URI are told. Answers the number of grants ended.
 */
export function useEndUserSessions() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(users.endUserSessions, { params: { id } }).then((r) => r.data.grants_ended),
    onSuccess: (_data, id) => qc.invalidateQueries({ queryKey: adminKeys.user(id) }),
  });
}

export function useVerifyUser() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(account.verifyUserManually, { body: { uuid: id } }),
    onSuccess: (_data, id) => qc.invalidateQueries({ queryKey: adminKeys.user(id) }),
  });
}

export function useGenerateApiKey() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(account.generateApiKey, { params: { id } }).then((r) => r.data.api_key),
    onSuccess: (_data, id) => qc.invalidateQueries({ queryKey: adminKeys.user(id) }),
  });
}

/** Revokes a technical user's key: it stops working at once (`revoked: false` when there was none). */
export function useRevokeApiKey() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(account.revokeApiKey, { params: { id } }).then((r) => r.data),
    onSuccess: (_data, id) => qc.invalidateQueries({ queryKey: adminKeys.user(id) }),
  });
}

export interface ImportInput {
  file: File;
  dryRun: boolean;
  sendInvitations: boolean;
}

/** The import's answer: a report (200) or a job to poll (202 `{job_id}`). */
export type ImportResult = { kind: 'report'; report: ImportReport } | { kind: 'job'; jobId: string };

/** Uploads the file (`multipart/form-data`): 200 with the report, or 202 with a job to poll. */
export async function postImport({ file, dryRun, sendInvitations }: ImportInput): Promise<ImportResult> {
  const body = new FormData();
  body.append('dry_run', String(dryRun));
  body.append('send_invitations', String(sendInvitations));
  body.append('file', file, file.name);
  return importResult((await upload(csv.importUsers, body)).data);
}

/** The answer of the import: 200 `{data: report}` or 202 `{data: {job_id, …}}` (contract/admin/import.ts importAcceptedSchema). */
function importResult(data: ImportReport | ImportAccepted['data']): ImportResult {
  if ('job_id' in data) return { kind: 'job', jobId: data.job_id };
  return { kind: 'report', report: data };
}

export function importJobQueryOptions(jobId: string) {
  return queryOptions({
    queryKey: adminKeys.importJob(jobId),
    queryFn: ({ signal }) => call(csv.getImportJob, { params: { id: jobId } }, { signal }).then((r) => r.data),
    refetchInterval: (query) => {
      const status = query.state.data?.status;
      return status === 'done' || status === 'failed' ? false : 750;
    },
  });
}

/** Downloads the export (bearer auth, so through the client + a blob link; the URL is the contract's). */
export async function downloadUsersCsv(filters: UserExportFilters): Promise<void> {
  const blob = await apiBlob(pathOf(csv.exportUsers), { query: compactQuery(filters), headers: { Accept: 'text/csv' } });
  const href = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = `users-${new Date().toISOString().slice(0, 10)}.csv`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(href), 1000);
}
