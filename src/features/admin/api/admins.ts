import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../api/call';
import type { BodyOf } from '../../../../contract/endpoint';
import type * as adminsContract from '../../../../contract/admin/admins';
// method and path only: contract/admin/admins.ts builds its zod schemas on import (contract/routes-admin.ts)
import { adminAdmins as admins } from '../../../../contract/routes-admin';
import { adminKeys, compactQuery } from './keys';
import type { AdminRoleName } from './types';

export interface AdminFilters {
  page: number;
  size: number;
  search?: string | undefined;
}

export function adminsQueryOptions(filters: AdminFilters) {
  const query = compactQuery(filters);
  return queryOptions({
    queryKey: adminKeys.adminList(query),
    queryFn: ({ signal }) => call(admins.listAdmins, { query }, { signal }),
    placeholderData: keepPreviousData,
  });
}

export type CreateAdminInput = BodyOf<typeof adminsContract.createAdmin>;

export function useCreateAdmin() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateAdminInput) => call(admins.createAdmin, { body: input }).then((r) => r.data),
    onSuccess: () => qc.invalidateQueries({ queryKey: adminKeys.admins() }),
  });
}

export function useChangeAdminRole() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, role }: { id: string; role: AdminRoleName }) => call(admins.updateAdmin, { params: { id }, body: { role } }).then((r) => r.data),
    onSuccess: () => qc.invalidateQueries({ queryKey: adminKeys.admins() }),
  });
}

export function useDeleteAdmin() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(admins.deleteAdmin, { params: { id } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: adminKeys.admins() }),
  });
}
