import { useQuery } from '@tanstack/react-query';
import { ADMIN_ROLES, type AdminRole } from '../../contract/domain/admin-roles';
import { currentAdminQueryOptions } from '../api/account';
import { useContext } from 'react';
import { SessionContext } from './session-context';

export type { AdminRole };

export interface CurrentAdmin {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  role: AdminRole | null;
  avatar: string | null;
}

function isRole(value: unknown): value is AdminRole {
  return (ADMIN_ROLES as readonly unknown[]).includes(value);
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** Reads `GET /api/admin` → `{data:{auth_user:{…}, 2fa:{…}}}`. */
export function parseCurrentAdmin(body: unknown): CurrentAdmin | null {
  if (typeof body !== 'object' || body === null) return null;
  const data = (body as { data?: unknown }).data;
  if (typeof data !== 'object' || data === null) return null;
  const user = (data as { auth_user?: unknown }).auth_user;
  if (typeof user !== 'object' || user === null) return null;
  const record = user as Record<string, unknown>;
  return {
    id: str(record.id),
    email: str(record.email),
    first_name: str(record.first_name),
    last_name: str(record.last_name),
    role: isRole(record.role) ? record.role : null,
    avatar: typeof record.avatar_url === 'string' ? record.avatar_url : typeof record.avatar === 'string' ? record.avatar : null,
  };
}

/**
 * The signed-in admin (`GET /api/admin`, shared cache entry with the admin
 * area guard), or null while loading, signed out or on failure.
 */
export function useCurrentAdmin(): CurrentAdmin | null {
  const session = useContext(SessionContext);
  const accessToken = session?.accessToken ?? null;
  const query = useQuery({
    ...currentAdminQueryOptions(),
    enabled: accessToken !== null,
    select: (data) => parseCurrentAdmin({ data }),
  });
  return query.data ?? null;
}
