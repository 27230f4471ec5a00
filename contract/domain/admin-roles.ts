/**
 * The admin roles (docs/SPEC.md §2): the one list. The contract's zod enums (contract/admin/admins.ts, common.ts,
 * auth.ts), the server's column type (server/db/schema.ts) and the SPA's guards and sidebar (src/lib/guards.ts) take
 * it from here. No zod: the SPA's entry chunk imports it.
 */
export const ADMIN_ROLES = ['super_admin', 'manager'] as const;

export type AdminRole = (typeof ADMIN_ROLES)[number];
