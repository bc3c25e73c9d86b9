import type { Transaction } from 'kysely';
import type { z } from 'zod';
import type { AdminUser, AdminUserDetail, adminUserCreateSchema, adminUserUpdateSchema } from '../../contract/admin';
import type { AccountsService } from '../accounts/accounts-service';
import { isUsernameTaken, normaliseEmail, type UserRow } from '../accounts/users-repository';
import { isUniqueViolation } from '../db/constraint-violations';
import type { Database } from '../db/database';
import { isPostgres } from '../db/postgres-one-statement';
import type { DB } from '../db/schema';
import { AppError } from '../errors';
import { editVersion } from './edit-version';
import { emailChangedNotice } from '../mail/email-changed-mail';
import type { Notify } from '../mail/security-notice';
import type { ServiceSessionsRepository } from '../oauth/service-sessions-repository';
import type { Authenticated, UserSessionsService } from '../sessions/user-sessions-service';
import type { AuthenticatorApps } from '../two-step/authenticator-apps';
import { contains, isoOrNull } from '../db/sql-search';
import { storedList } from '../db/stored-list';

const toAdminUser = (row: UserRow): AdminUser => ({
  id: row.id,
  full_name: row.full_name,
  email: row.email,
  is_admin: row.is_admin === 1,
  created_at: new Date(row.created_at).toISOString(),
  last_login: isoOrNull(row.last_login),
  profile_picture: row.profile_picture,
  disabled_at: isoOrNull(row.disabled_at),
});

/** What the user edit form shows (see editVersion). */
const userEditVersion = (row: UserRow) => editVersion([row.full_name, row.email, row.username, row.phone_number, row.is_admin, storedList(row.groups)]);

const toDetail = (row: UserRow, twoStepEnabled: boolean): AdminUserDetail => ({
  ...toAdminUser(row),
  username: row.username,
  phone_number: row.phone_number,
  email_verified: row.email_verified === 1,
  avatar_verified: row.avatar_verified === 1,
  verified: row.verified === 1,
  two_step_enabled: twoStepEnabled,
  groups: storedList(row.groups),
  edit_version: userEditVersion(row),
});

/**
 * The audit log's account-changed detail: what an edit changed, by field name ("full_name, groups");
 * null when nothing. An email names the old address and the new ("email:old@x.lan:new@x.lan", no
 * email holds a colon), and the role which way it went: the log then tells who had which address
 * and who was an administrator when.
 */
export function changedAccountFields(before: AdminUserDetail, after: AdminUserDetail): string | null {
  const fields = (['full_name', 'email', 'username', 'phone_number', 'is_admin', 'groups'] as const).filter((field) => JSON.stringify(before[field]) !== JSON.stringify(after[field]));
  const named = fields.map((field) => {
    if (field === 'is_admin') return after.is_admin ? 'made-admin' : 'admin-removed';
    return field === 'email' ? `email:${before.email}:${after.email}` : field;
  });
  return named.length ? named.join(', ') : null;
}

/**
 * Users as administrators manage them. The last enabled administrator can be neither demoted,
 * disabled nor deleted, and nobody can disable themselves: someone is always left to manage the rest.
 */
export class UsersAdmin {
  private readonly onPostgres: boolean;

  constructor(
    private readonly db: Database,
    private readonly accounts: AccountsService,
    private readonly sessions: UserSessionsService,
    private readonly serviceSessions: ServiceSessionsRepository,
    private readonly authenticatorApps: AuthenticatorApps,
    private readonly notify: Notify,
    private readonly clock: () => number,
  ) {
    this.onPostgres = isPostgres(db);
  }

  async list(search?: string): Promise<AdminUser[]> {
    let query = this.db.selectFrom('users').selectAll().orderBy('created_at', 'desc').orderBy('id');
    if (search?.trim()) query = query.where((eb) => eb.or([contains('full_name', search), contains('email', search), contains('username', search)]));
    return (await query.execute()).map(toAdminUser);
  }

  async get(id: string): Promise<AdminUserDetail> {
    const [row, twoStep] = await Promise.all([this.row(id), this.authenticatorApps.status(id)]);
    return toDetail(row, twoStep.enabled);
  }

  async create(input: z.output<typeof adminUserCreateSchema>): Promise<AdminUserDetail> {
    const { id } = await this.accounts.register({ full_name: input.full_name, email: input.email, username: input.username, password: input.password }, { admin: input.is_admin, bypassClosedRegistration: true });
    if (input.groups?.length) await this.db.updateTable('users').set({ groups: JSON.stringify(input.groups) }).where('id', '=', id).execute();
    return this.get(id);
  }

  /**
   * Edits a user. A changed email must be verified again: codes and reset links mailed to the old
   * address stop working, every service signs the person out, and the old address is told where
   * the account's mail goes now. A phone number, username or groups left out stay as they are.
   * One's own email changes only with the current password proved (`ownPasswordProved`), as on
   * Personal Info.
   */
  async update(id: string, input: z.output<typeof adminUserUpdateSchema>, by: Authenticated, ownPasswordProved: boolean): Promise<AdminUserDetail> {
    const before = await this.changingAdministrators(async (tx, enabledAdmins) => {
      const current = await this.row(id, tx);
      if (input.edit_version !== undefined && input.edit_version !== userEditVersion(current)) throw AppError.changedMeanwhile('account');
      if (current.is_admin === 1 && !input.is_admin) refuseIfLastAdmin(enabledAdmins, id);
      const email = normaliseEmail(input.email);
      const emailChanged = email !== current.email;
      if (emailChanged && id === by.userId && !ownPasswordProved) throw AppError.ownEmailNeedsPassword();
      await tx
        .updateTable('users')
        .set({
          full_name: input.full_name,
          email,
          ...(input.username ? { username: input.username } : {}),
          ...(input.phone_number !== undefined ? { phone_number: input.phone_number } : {}),
          is_admin: input.is_admin ? 1 : 0,
          ...(input.groups ? { groups: JSON.stringify(input.groups) } : {}),
          updated_at: this.clock(),
          ...(emailChanged ? { email_verified: 0, verified: 0 } : {}),
        })
        .where('id', '=', id)
        .execute()
        .catch((error: unknown) => {
          if (isUsernameTaken(error)) throw AppError.usernameTaken();
          if (isUniqueViolation(error)) throw AppError.emailTaken();
          throw error;
        });
      if (emailChanged) {
        await tx.deleteFrom('email_otps').where('user_id', '=', id).execute();
        await tx.deleteFrom('password_resets').where('user_id', '=', id).execute();
        // Services signed in to went on refreshing under an address no longer proved, where every
        // new sign-in is refused until it is: they ask again, once the person has verified it.
        await this.serviceSessions.revokeAllForUser(id, this.clock(), tx);
      }
      return { ...current, emailChanged, newEmail: email };
    });
    if (before.emailChanged) this.notify(before, emailChangedNotice(before.newEmail));
    return this.get(id);
  }

  /** Sets another user's password and signs them out of Home Guard everywhere and of every service. */
  async setPassword(id: string, password: string, by: Authenticated): Promise<void> {
    if (id === by.userId) throw AppError.ownSignInElsewhere();
    await this.row(id);
    await this.accounts.setPassword(id, password, 'set-by-administrator');
  }

  /**
   * For someone who lost their authenticator app: they sign in with their password alone, and may
   * set it up again. `turnedOff` is false when it was off already.
   */
  async turnOffTwoStep(id: string, by: Authenticated): Promise<{ user: AdminUserDetail; turnedOff: boolean }> {
    if (id === by.userId) throw AppError.ownSignInElsewhere();
    const row = await this.row(id);
    const { wasOn } = await this.authenticatorApps.turnOff(row, 'administrator');
    return { user: toDetail(row, false), turnedOff: wasOn };
  }

  /**
   * Signs someone out of Home Guard on every device and of every service, for a device lost or
   * taken, without a new password or disabling the account: they may sign in again at once.
   * Answers how many devices it signed out.
   */
  async signOutEverywhere(id: string, by: Authenticated): Promise<number> {
    if (id === by.userId) throw AppError.ownSignOutElsewhere();
    await this.row(id);
    return this.endEverySession(id, this.clock());
  }

  /** Signs out every device and every service of the account; answers how many devices. */
  private async endEverySession(id: string, now: number): Promise<number> {
    const devices = await this.sessions.revokeAllForUser(id);
    await this.serviceSessions.revokeAllForUser(id, now);
    return devices;
  }

  /**
   * Disables an account, or enables it again. Disabled, it is signed out of Home Guard on every
   * device and of every service at once (their tokens stop working), and cannot sign in; nothing
   * of it is deleted. Asking for the state it is already in changes nothing (a disabled account's
   * sign-outs are made again, which change nothing either once done).
   */
  async setDisabled(id: string, disabled: boolean, by: Authenticated): Promise<AdminUserDetail> {
    const now = this.clock();
    const nowDisabled = await this.changingAdministrators(async (tx, enabledAdmins) => {
      const current = await this.row(id, tx);
      if (disabled && id === by.userId) throw AppError.cannotDisableSelf();
      // Disabled already: the sign-outs below run again, in case a failure cut them short before.
      if (disabled === (current.disabled_at !== null)) return disabled;
      if (disabled && current.is_admin === 1) refuseIfLastAdmin(enabledAdmins, id);
      await tx.updateTable('users').set({ disabled_at: disabled ? now : null, updated_at: now }).where('id', '=', id).execute();
      return disabled;
    });
    if (nowDisabled) {
      await this.endEverySession(id, now);
      await this.db.deleteFrom('password_resets').where('user_id', '=', id).execute();
    }
    return this.get(id);
  }

  /**
   * Deletes a user with everything of theirs: sessions, service sessions, codes, picture. Not
   * one's own account: a session taken over would otherwise end it without its password.
   * `alongside` writes in the same commit (the audit line that keeps who it was).
   */
  async delete(id: string, by: Authenticated, alongside: (tx: Database, deleted: UserRow) => Promise<void>): Promise<void> {
    await this.changingAdministrators(async (tx, enabledAdmins) => {
      const current = await this.row(id, tx);
      if (id === by.userId) throw AppError.cannotDeleteSelf();
      if (current.is_admin === 1) refuseIfLastAdmin(enabledAdmins, id);
      await tx.deleteFrom('users').where('id', '=', id).execute();
      await alongside(tx, current);
    });
  }

  private async row(id: string, db: Database = this.db): Promise<UserRow> {
    const row = await db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw AppError.notFound('user');
    return row;
  }

  /**
   * Runs a change that may take an administrator away: its check that another enabled one remains
   * and its write, as one transaction, one such change at a time. Two at once would otherwise each
   * count on the other and leave none. On PostgreSQL it locks the enabled administrators' rows: a
   * change waiting for them reads them again once the one before commits, without any it took
   * away. SQLite's one connection runs one transaction at a time. `work` gets the enabled
   * administrators' ids, and must use `tx` alone (on SQLite the database waits for `work`).
   */
  private changingAdministrators<T>(work: (tx: Transaction<DB>, enabledAdmins: string[]) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(async (tx) => {
      const admins = tx.selectFrom('users').select('id').where('is_admin', '=', 1).where('disabled_at', 'is', null).orderBy('id');
      const rows = await (this.onPostgres ? admins.forUpdate() : admins).execute();
      return work(tx, rows.map((row) => row.id));
    });
  }
}

/** Refuses to take `id` away as an administrator unless another enabled one remains (the target may itself be disabled). */
function refuseIfLastAdmin(enabledAdmins: string[], id: string): void {
  if (!enabledAdmins.some((admin) => admin !== id)) throw AppError.lastAdministrator();
}
