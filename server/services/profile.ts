import { nowIso } from '../db/index';
import { AppError } from '../errors';
import type { ProfileInput } from '../../contract/profile';
import type { AccountView } from '../../contract/common';
import { accountView } from './admin/schemas';
import { avatarImage, clearAvatar, setAvatar } from './admin/avatars';
import { isUniqueViolation } from './admin/catalog';
import { normalizeEmail, searchTextOf } from './accounts';
import type { Actor, Deps } from './deps';
import { verifyPassword } from './passwords';

const emailTaken = () => new AppError(409, 'email_taken', { fields: { email: ['email_taken'] } });

/** The signed-in account's own profile (name, phone, language, e-mail) and avatar, and the avatar files. */
export function createProfileService(deps: Deps) {
  const db = deps.db.kysely;

  async function me(actor: Actor) {
    if (!actor.id) throw new AppError(401, 'unauthorized');
    const account = await db.selectFrom('accounts').selectAll().where('id', '=', actor.id).executeTakeFirst();
    if (!account) throw new AppError(401, 'unauthorized');
    return account;
  }

  return {
    /**
     * Updates the own profile. A new e-mail address needs the current password, must be free among accounts of
     * the same type (409 `email_taken`) and is unverified until shown otherwise.
     */
    async update(actor: Actor, input: ProfileInput): Promise<AccountView> {
      const current = await me(actor);
      const patch: { first_name?: string; last_name?: string; phone?: string | null; locale?: string; email?: string; email_normalized?: string; email_verified_at?: null } = {};
      if (input.first_name !== undefined) patch.first_name = input.first_name;
      if (input.last_name !== undefined) patch.last_name = input.last_name;
      if (input.phone !== undefined) patch.phone = input.phone;
      if (input.locale !== undefined) patch.locale = input.locale;
      if (input.email !== undefined && normalizeEmail(input.email) !== current.email_normalized) {
        if (!input.current_password) throw new AppError(422, 'validation_failed', { fields: { current_password: ['current_password_required'] } });
        if (!current.password_hash || !(await verifyPassword(current.password_hash, input.current_password))) {
          throw new AppError(422, 'current_password_invalid', { fields: { current_password: ['current_password_invalid'] } });
        }
        const taken = await db.selectFrom('accounts').select('id').where('type', '=', current.type).where('email_normalized', '=', normalizeEmail(input.email)).executeTakeFirst();
        if (taken) throw emailTaken();
        patch.email = input.email.trim();
        patch.email_normalized = normalizeEmail(input.email);
        // nobody has shown control of the new address yet (the OIDC email_verified claim reads this column)
        patch.email_verified_at = null;
      }
      if (Object.keys(patch).length) {
        const merged = { ...current, ...patch };
        try {
          await db.updateTable('accounts').set({ ...patch, search_text: searchTextOf(merged), updated_at: nowIso() }).where('id', '=', current.id).execute();
        } catch (err) {
          if (isUniqueViolation(err)) throw emailTaken();
          throw err;
        }
      }
      return accountView(await db.selectFrom('accounts').selectAll().where('id', '=', current.id).executeTakeFirstOrThrow());
    },

    /** Stores an uploaded image as the avatar (checked and re-encoded); answers its public URL. */
    async setAvatar(actor: Actor, upload: Buffer): Promise<string> {
      if (!actor.id) throw new AppError(401, 'unauthorized');
      return `/api/avatars/${await setAvatar(deps, actor.id, upload)}`;
    },

    async removeAvatar(actor: Actor): Promise<void> {
      if (!actor.id) throw new AppError(401, 'unauthorized');
      await clearAvatar(deps, actor.id);
    },

    /** An avatar's PNG (from the database, whichever instance stored it); 404 `avatar_not_found` for any other name. */
    async avatarFile(file: string): Promise<Buffer> {
      const image = await avatarImage(deps, file);
      if (!image) throw new AppError(404, 'avatar_not_found');
      return image;
    },
  };
}
export type ProfileService = ReturnType<typeof createProfileService>;
