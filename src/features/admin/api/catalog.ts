import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiDelete, apiGet, apiPatch, apiPost } from '../../../api';
import { call } from '../../../api/call';
import * as catalog from '../../../../contract/admin/catalog';
import { adminKeys, compactQuery } from './keys';
import type { ListResponse, SecretAuthMethod, ServiceApp } from './types';

/** Roles, subscriptions and service apps are small sets; the server pages them with size ≤ 100. */
export interface CatalogFilters {
  page: number;
  size: number;
  search?: string | undefined;
}

export const ALL = { page: 1, size: 100 } as const;

export function rolesQueryOptions(filters: CatalogFilters = ALL) {
  const query = compactQuery(filters);
  return queryOptions({
    queryKey: adminKeys.roleList(query),
    queryFn: ({ signal }) => call(catalog.listRoles, { query }, { signal }),
    placeholderData: keepPreviousData,
  });
}

export function subscriptionsQueryOptions(filters: CatalogFilters = ALL) {
  const query = compactQuery(filters);
  return queryOptions({
    queryKey: adminKeys.subscriptionList(query),
    queryFn: ({ signal }) => call(catalog.listSubscriptions, { query }, { signal }),
    placeholderData: keepPreviousData,
  });
}

export function serviceAppsQueryOptions(filters: CatalogFilters = ALL) {
  const query = compactQuery(filters);
  return queryOptions({
    queryKey: adminKeys.serviceAppList(query),
    queryFn: ({ signal }) => apiGet<ListResponse<ServiceApp>>('/api/admin/service-apps', { query, signal }),
    placeholderData: keepPreviousData,
  });
}

export interface RoleInput {
  name: string;
  description: string;
}
export interface SubscriptionInput {
  name: string;
  description: string;
  role_ids: string[];
}
export interface ServiceAppInput {
  name: string;
  display_name: string;
  url: string;
  path: string;
  role_ids: string[];
  client_type: 'public' | 'confidential';
  /** confidential apps only (public apps always need PKCE) */
  pkce_required?: boolean;
  /** confidential apps only */
  client_credentials?: boolean;
  /** confidential apps only: how the app sends its secret at the token endpoint */
  token_endpoint_auth_method?: SecretAuthMethod;
}

function useRefresh(invalidate: readonly (readonly string[])[]) {
  const qc = useQueryClient();
  return () => Promise.all(invalidate.map((queryKey) => qc.invalidateQueries({ queryKey })));
}

function useCrud<Input extends object, Out>(base: string, invalidate: readonly (readonly string[])[]) {
  const refresh = useRefresh(invalidate);
  const create = useMutation({
    mutationFn: (input: Input) => apiPost<{ data: Out }>(base, input as Record<string, unknown>).then((r) => r.data),
    onSuccess: refresh,
  });
  const update = useMutation({
    mutationFn: ({ id, input }: { id: string; input: Partial<Input> }) => apiPatch<{ data: Out }>(`${base}/${encodeURIComponent(id)}`, input as Record<string, unknown>).then((r) => r.data),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: (id: string) => apiDelete<unknown>(`${base}/${encodeURIComponent(id)}`),
    onSuccess: refresh,
  });
  return { create, update, remove };
}

// Renaming or deleting a role changes how subscriptions, service apps and users show it.
export function useRoleMutations() {
  const refresh = useRefresh([adminKeys.roles(), adminKeys.subscriptions(), adminKeys.serviceApps(), adminKeys.users()]);
  return {
    create: useMutation({ mutationFn: (body: RoleInput) => call(catalog.createRole, { body }).then((r) => r.data), onSuccess: refresh }),
    update: useMutation({
      mutationFn: ({ id, input }: { id: string; input: Partial<RoleInput> }) => call(catalog.updateRole, { params: { id }, body: input }).then((r) => r.data),
      onSuccess: refresh,
    }),
    remove: useMutation({ mutationFn: (id: string) => call(catalog.deleteRole, { params: { id } }), onSuccess: refresh }),
  };
}

export function useSubscriptionMutations() {
  const refresh = useRefresh([adminKeys.subscriptions(), adminKeys.users()]);
  return {
    create: useMutation({ mutationFn: (body: SubscriptionInput) => call(catalog.createSubscription, { body }).then((r) => r.data), onSuccess: refresh }),
    update: useMutation({
      mutationFn: ({ id, input }: { id: string; input: Partial<SubscriptionInput> }) =>
        call(catalog.updateSubscription, { params: { id }, body: input }).then((r) => r.data),
      onSuccess: refresh,
    }),
    remove: useMutation({ mutationFn: (id: string) => call(catalog.deleteSubscription, { params: { id } }), onSuccess: refresh }),
  };
}
export const useServiceAppMutations = () => useCrud<ServiceAppInput, ServiceApp>('/api/admin/service-apps', [adminKeys.serviceApps()]);
