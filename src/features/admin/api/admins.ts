import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiDelete, apiGet, apiPatch, apiPost } from '../../../api';
import { adminKeys, compactQuery } from './keys';
import type { Account, AdminRoleName, ListResponse } from './types';

export interface AdminFilters {
  page: number;
  size: number;
  search?: string | undefined;
}

export function adminsQueryOptions(filters: AdminFilters) {
  const query = compactQuery(filters);
  return queryOptions({
    queryKey: adminKeys.adminList(query),
    queryFn: ({ signal }) => apiGet<ListResponse<Account>>('/api/admin/admins', { query, signal }),
    placeholderData: keepPreviousData,
  });
}

export interface CreateAdminInput {
  email: string;
  first_name: string;
  last_name: string;
  role: AdminRoleName;
}

export function useCreateAdmin() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateAdminInput) => apiPost<{ data: Account }>('/api/admin/admins', input).then((r) => r.data),
    onSuccess: () => qc.invalidateQueries({ queryKey: adminKeys.admins() }),
  });
}

export function useChangeAdminRole() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, role }: { id: string; role: AdminRoleName }) => apiPatch<{ data: Account }>(`/api/admin/admins/${encodeURIComponent(id)}`, { role }).then((r) => r.data),
    onSuccess: () => qc.invalidateQueries({ queryKey: adminKeys.admins() }),
  });
}

export function useDeleteAdmin() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiDelete<unknown>(`/api/admin/admins/${encodeURIComponent(id)}`),
    onSuccess: () => qc.invalidateQueries({ queryKey: adminKeys.admins() }),
  });
}
