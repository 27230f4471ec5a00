import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../api/call';
import type { BodyOf } from '../../../../contract/endpoint';
import type * as catalogContract from '../../../../contract/admin/catalog';
import type * as serviceAppsContract from '../../../../contract/admin/service-apps';
// method and path only: the contract's area modules build their zod schemas on import (contract/routes-admin.ts)
import { adminCatalog as catalog, adminServiceApps as serviceApps } from '../../../../contract/routes-admin';
import { adminKeys, compactQuery } from './keys';

/** Roles, subscriptions and service apps are small sets; the server pages them with size ≤ 100. */
export interface CatalogFilters {
  page: number;
  size: number;
  search?: string | undefined;
}

export const ALL = { page: 1, size: 100 } as const;

/** A catalog list: keyed by its compacted filters; the previous answer stays shown while the next loads. */
function listQueryOptions<K extends readonly unknown[], T>(filters: CatalogFilters, key: (query: object) => K, list: (query: Record<string, string | number>, signal: AbortSignal) => Promise<T>) {
  const query = compactQuery(filters);
  return queryOptions({ queryKey: key(query), queryFn: ({ signal }) => list(query, signal), placeholderData: keepPreviousData });
}

export const rolesQueryOptions = (filters: CatalogFilters = ALL) => listQueryOptions(filters, adminKeys.roleList, (query, signal) => call(catalog.listRoles, { query }, { signal }));
export const subscriptionsQueryOptions = (filters: CatalogFilters = ALL) =>
  listQueryOptions(filters, adminKeys.subscriptionList, (query, signal) => call(catalog.listSubscriptions, { query }, { signal }));
export const serviceAppsQueryOptions = (filters: CatalogFilters = ALL) =>
  listQueryOptions(filters, adminKeys.serviceAppList, (query, signal) => call(serviceApps.listServiceApps, { query }, { signal }));

/** What the catalog forms send: the bodies of the contract's create endpoints (an update sends the same fields). */
export type RoleInput = BodyOf<typeof catalogContract.createRole>;
export type SubscriptionInput = BodyOf<typeof catalogContract.createSubscription>;
export type ServiceAppInput = BodyOf<typeof serviceAppsContract.createServiceApp>;

/** Create, update and remove of one catalog kind; each success refreshes the lists that show it. */
function useCatalogMutations<Input, Created, Patch, Updated, Removed>(
  invalidate: readonly (readonly string[])[],
  ops: { create: (body: Input) => Promise<Created>; update: (id: string, body: Patch) => Promise<Updated>; remove: (id: string) => Promise<Removed> },
) {
  const qc = useQueryClient();
  const refresh = () => Promise.all(invalidate.map((queryKey) => qc.invalidateQueries({ queryKey })));
  return {
    create: useMutation({ mutationFn: ops.create, onSuccess: refresh }),
    update: useMutation({ mutationFn: ({ id, input }: { id: string; input: Patch }) => ops.update(id, input), onSuccess: refresh }),
    remove: useMutation({ mutationFn: ops.remove, onSuccess: refresh }),
  };
}

// Renaming or deleting a role changes how subscriptions, service apps and users show it.
export const useRoleMutations = () =>
  useCatalogMutations([adminKeys.roles(), adminKeys.subscriptions(), adminKeys.serviceApps(), adminKeys.users()], {
    create: (body: RoleInput) => call(catalog.createRole, { body }).then((r) => r.data),
    update: (id, body: BodyOf<typeof catalogContract.updateRole>) => call(catalog.updateRole, { params: { id }, body }).then((r) => r.data),
    remove: (id) => call(catalog.deleteRole, { params: { id } }),
  });

export const useSubscriptionMutations = () =>
  useCatalogMutations([adminKeys.subscriptions(), adminKeys.users()], {
    create: (body: SubscriptionInput) => call(catalog.createSubscription, { body }).then((r) => r.data),
    update: (id, body: BodyOf<typeof catalogContract.updateSubscription>) => call(catalog.updateSubscription, { params: { id }, body }).then((r) => r.data),
    remove: (id) => call(catalog.deleteSubscription, { params: { id } }),
  });

export const useServiceAppMutations = () =>
  useCatalogMutations([adminKeys.serviceApps()], {
    create: (body: ServiceAppInput) => call(serviceApps.createServiceApp, { body }).then((r) => r.data),
    update: (id, body: BodyOf<typeof serviceAppsContract.updateServiceApp>) => call(serviceApps.updateServiceApp, { params: { id }, body }).then((r) => r.data),
    remove: (id) => call(serviceApps.deleteServiceApp, { params: { id } }),
  });
