import { RECOVERY_CODE_PATTERN, type RecoveryCodes, type TwoStepSetup, type TwoStepStatus, type TwoStepTurnedOn } from '../../contract/two-step';
import { sameBytes } from '../constant-time';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/database';
import { firstRow, preparedQuery } from '../db/prepared-query';
import { AppError } from '../errors';
import type { NoticeTo, Notify } from '../mail/security-notice';
import { twoStepNotice, type TwoStepChange } from '../mail/two-step-mail';
import { hashRecoveryCode, newRecoveryCodes } from './recovery-codes';
import { clockOffsetOf, matchingStep, newTotpSecret, otpauthUri } from './totp';

/**
 * How long a setup's secret can turn two-step sign-in on: time enough to find the phone and
 * install an app. Older setups are refused, and pruned (ExpiredRows).
 */
export const SETUP_LIFETIME_MS = 60 * 60_000;

export type SignInCheck = 'not-needed' | 'accepted' | 'recovery-code-accepted' | 'missing' | 'wrong' | 'reused' | 'recovery-code-wrong';

/** Whose second step changes: the person is mailed about it. */
type Person = NoticeTo;

/**
 * Two-step sign-in with an authenticator app. A person's app and Home Guard share a secret; each
 * code works once, and never one older than the last accepted (RFC 6238 §5.2). Recovery codes
 * stand in for the app when the phone is lost, each once.
 */
export class AuthenticatorApps {
  constructor(
    private readonly db: Database,
    private readonly notify: Notify,
    private readonly log: FastifyBaseLogger,
    private readonly clock: () => number,
  ) {}

  async status(userId: string): Promise<TwoStepStatus> {
    const app = await this.db.selectFrom('authenticator_apps').select('created_at').where('user_id', '=', userId).executeTakeFirst();
    if (!app) return { enabled: false, since: null, recovery_codes_left: 0 };
    return { enabled: true, since: new Date(Number(app.created_at)).toISOString(), recovery_codes_left: await this.recoveryCodesLeft(userId) };
  }

  /**
   * A new secret for the person to add to their app, kept until `turnOn` gets a code made from it;
   * it replaces any earlier setup's.
   */
  async setup(person: Person): Promise<TwoStepSetup> {
    const secret = newTotpSecret();
    await this.db
      .insertInto('authenticator_app_setups')
      .values({ user_id: person.id, secret, created_at: this.clock() })
      .onConflict((conflict) => conflict.column('user_id').doUpdateSet({ secret, created_at: this.clock() }))
      .execute();
    return { secret, uri: otpauthUri(secret, person.email, 'Home Guard') };
  }

  /**
   * Turns it on with the secret of the person's latest setup, and answers with the first recovery
   * codes: the only time they are shown. A wrong code leaves the setup as it was, to try again.
   */
  async turnOn(person: Person, secret: string, code: string): Promise<TwoStepTurnedOn> {
    const now = this.clock();
    const setup = await this.latestSetup(person.id);
    if (!setup && (await isOn(this.db, person.id))) throw AppError.twoStepAlreadyOn();
    if (!setup || !sameBytes(setup.secret, secret) || Number(setup.created_at) <= now - SETUP_LIFETIME_MS) throw AppError.twoStepSetupStale();
    const step = matchingStep(secret, code, now);
    if (step === undefined) {
      this.sayIfClocksDiffer(secret, code, now);
      throw AppError.authenticatorCodeWrong(400);
    }
    const codes = newRecoveryCodes();
    await this.db.transaction().execute(async (tx) => {
      // Conditional, so of two requests racing with one setup only one turns it on, and a setup
      // replaced since it was read above is not: the person's app now holds the newer secret.
      const taken = await tx.deleteFrom('authenticator_app_setups').where('user_id', '=', person.id).where('secret', '=', setup.secret).executeTakeFirst();
      if (taken.numDeletedRows !== 1n) throw (await isOn(tx, person.id)) ? AppError.twoStepAlreadyOn() : AppError.twoStepSetupStale();
      // The code that turned it on is used up: it cannot also sign in.
      const added = await tx
        .insertInto('authenticator_apps')
        .values({ user_id: person.id, secret, last_used_step: step, created_at: now })
        .onConflict((conflict) => conflict.column('user_id').doNothing())
        .executeTakeFirst();
      if (added.numInsertedOrUpdatedRows !== 1n) throw AppError.twoStepAlreadyOn();
      await replaceRecoveryCodes(tx, person.id, codes);
    });
    this.tell(person, 'turned-on');
    return { enabled: true, since: new Date(now).toISOString(), recovery_codes_left: codes.length, recovery_codes: codes };
  }

  /** A method of its own so that tests can hold a turn-on between this read and its write. */
  private async latestSetup(userId: string) {
    return this.db.selectFrom('authenticator_app_setups').select(['secret', 'created_at']).where('user_id', '=', userId).executeTakeFirst();
  }

  /** New recovery codes in place of all the old ones, used or not. */
  async renewRecoveryCodes(person: Person): Promise<RecoveryCodes> {
    const codes = newRecoveryCodes();
    await this.db.transaction().execute(async (tx) => {
      if (!(await isOn(tx, person.id))) throw AppError.twoStepOff();
      await replaceRecoveryCodes(tx, person.id, codes);
    });
    this.tell(person, 'recovery-codes-renewed');
    return { recovery_codes: codes };
  }

  /** Turns it off; `wasOn` says whether there was anything to turn off. */
  async turnOff(person: Person, by: 'self' | 'administrator', only: 'any' | 'set-up-unproved' = 'any'): Promise<{ status: TwoStepStatus; wasOn: boolean }> {
    const wasOn = await this.db.transaction().execute(async (tx) => {
      const removed = await tx
        .deleteFrom('authenticator_apps')
        .where('user_id', '=', person.id)
        .$if(only === 'set-up-unproved', (query) => query.where('set_up_unproved', '=', 1))
        .executeTakeFirst();
      if (removed.numDeletedRows > 0n) await tx.deleteFrom('recovery_codes').where('user_id', '=', person.id).execute();
      return removed.numDeletedRows > 0n;
    });
    if (wasOn) this.tell(person, by === 'self' ? 'turned-off' : 'turned-off-by-administrator');
    return { status: { enabled: false, since: null, recovery_codes_left: 0 }, wasOn };
  }

  private tell(person: Person, change: TwoStepChange, codesLeft?: number): void {
    this.notify(person, twoStepNotice(change, codesLeft));
  }

  private async recoveryCodesLeft(userId: string): Promise<number> {
    const { count } = await this.db.selectFrom('recovery_codes').select((eb) => eb.fn.countAll().as('count')).where('user_id', '=', userId).executeTakeFirstOrThrow();
    return Number(count);
  }

  /** Checks a sign-in's code, after its password was right. An accepted code is used up at once. */
  async checkSignIn(person: Person, code: string | undefined): Promise<SignInCheck> {
    const app = firstRow(await appOfUser(this.db, { userId: person.id }));
    if (!app) return 'not-needed';
    if (code === undefined) return 'missing';
    if (RECOVERY_CODE_PATTERN.test(code)) return this.useRecoveryCode(person, code);
    const now = this.clock();
    const step = matchingStep(app.secret, code, now);
    if (step === undefined) {
      this.sayIfClocksDiffer(app.secret, code, now);
      return 'wrong';
    }
    if (step <= Number(app.last_used_step)) return 'reused';
    return (await this.useStep(person.id, step)) ? 'accepted' : 'reused';
  }

  /** Conditional, so of two sign-ins racing with one code only one gets it. */
  private async useStep(userId: string, step: number): Promise<boolean> {
    const used = await this.db.updateTable('authenticator_apps').set({ last_used_step: step }).where('user_id', '=', userId).where('last_used_step', '<', step).executeTakeFirst();
    return used.numUpdatedRows === 1n;
  }

  /** A home server without NTP refuses every code: the operator is told what the person cannot see. */
  private sayIfClocksDiffer(secret: string, code: string, now: number): void {
    const offset = clockOffsetOf(secret, code, now);
    if (offset === undefined) return;
    this.log.warn(
      `a refused authenticator code was made ${Math.abs(offset)} s ${offset > 0 ? 'after' : 'before'} the time on this server's clock; codes are taken within 30 s of it. If codes keep failing, set the server's clock (NTP)`,
    );
  }

  /** A DELETE, so of two sign-ins racing with one code only one gets it. */
  private async useRecoveryCode(person: Person, code: string): Promise<SignInCheck> {
    const used = await this.db.deleteFrom('recovery_codes').where('user_id', '=', person.id).where('code_hash', '=', hashRecoveryCode(code)).executeTakeFirst();
    if (used.numDeletedRows !== 1n) return 'recovery-code-wrong';
    this.tell(person, 'recovery-code-used', await this.recoveryCodesLeft(person.id));
    return 'recovery-code-accepted';
  }
}

async function isOn(db: Database, userId: string): Promise<boolean> {
  return (await db.selectFrom('authenticator_apps').select('user_id').where('user_id', '=', userId).executeTakeFirst()) !== undefined;
}

async function replaceRecoveryCodes(tx: Database, userId: string, codes: string[]): Promise<void> {
  await tx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
  await tx
    .insertInto('recovery_codes')
    .values(codes.map((code) => ({ user_id: userId, code_hash: hashRecoveryCode(code) })))
    .execute();
}

// Every sign-in reads it: compiled once (see preparedQuery).
const appOfUser = preparedQuery((db, value) => db.selectFrom('authenticator_apps').select(['secret', 'last_used_step']).where('user_id', '=', value<string>('userId')));
