import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../api/call';
import type { BodyOf } from '../../../../contract/endpoint';
import * as catalog from '../../../../contract/admin/catalog';
import * as serviceApps from '../../../../contract/admin/service-apps';
import { adminKeys, compactQuery } from './keys';

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
    queryFn: ({ signal }) => call(serviceApps.listServiceApps, { query }, { signal }),
    placeholderData: keepPreviousData,
  });
}

/** What the catalog forms send: the bodies of the contract's create endpoints (an update sends the same fields). */
export type RoleInput = BodyOf<typeof catalog.createRole>;
export type SubscriptionInput = BodyOf<typeof catalog.createSubscription>;
export type ServiceAppInput = BodyOf<typeof serviceApps.createServiceApp>;

function useRefresh(invalidate: readonly (readonly string[])[]) {
  const qc = useQueryClient();
  return () => Promise.all(invalidate.map((queryKey) => qc.invalidateQueries({ queryKey })));
}

// Renaming or deleting a role changes how subscriptions, service apps and users show it.
export function useRoleMutations() {
  const refresh = useRefresh([adminKeys.roles(), adminKeys.subscriptions(), adminKeys.serviceApps(), adminKeys.users()]);
  return {
    create: useMutation({ mutationFn: (body: RoleInput) => call(catalog.createRole, { body }).then((r) => r.data), onSuccess: refresh }),
    update: useMutation({
      mutationFn: ({ id, input }: { id: string; input: BodyOf<typeof catalog.updateRole> }) => call(catalog.updateRole, { params: { id }, body: input }).then((r) => r.data),
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
      mutationFn: ({ id, input }: { id: string; input: BodyOf<typeof catalog.updateSubscription> }) =>
        call(catalog.updateSubscription, { params: { id }, body: input }).then((r) => r.data),
      onSuccess: refresh,
    }),
    remove: useMutation({ mutationFn: (id: string) => call(catalog.deleteSubscription, { params: { id } }), onSuccess: refresh }),
  };
}
export function useServiceAppMutations() {
  const refresh = useRefresh([adminKeys.serviceApps()]);
  return {
    create: useMutation({ mutationFn: (body: ServiceAppInput) => call(serviceApps.createServiceApp, { body }).then((r) => r.data), onSuccess: refresh }),
    update: useMutation({
      mutationFn: ({ id, input }: { id: string; input: BodyOf<typeof serviceApps.updateServiceApp> }) =>
        call(serviceApps.updateServiceApp, { params: { id }, body: input }).then((r) => r.data),
      onSuccess: refresh,
    }),
    remove: useMutation({ mutationFn: (id: string) => call(serviceApps.deleteServiceApp, { params: { id } }), onSuccess: refresh }),
  };
}
