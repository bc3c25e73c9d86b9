import type { FastifyBaseLogger } from 'fastify';
import type { LoginResponse } from '../../contract/accounts';
import { WITH_RECOVERY_CODE, type SignInRefusal } from '../../contract/audit';
import type { AuditLog } from '../audit/audit-log';
import { AppError } from '../errors';
import { newDeviceNotice } from '../mail/new-device-mail';
import type { Notify } from '../mail/security-notice';
import { twoStepNotice } from '../mail/two-step-mail';
import type { BackgroundWork } from '../operations/background-work';
import { logRefusedAttempt } from '../operations/refused-attempts';
import { describeDevice } from '../sessions/device-info';
import { SIGN_IN_METHODS, type Authenticated, type ClientInfo, type UserSessionsService } from '../sessions/user-sessions-service';
import { addressBlock } from '../throttle/address-block';
import { isThrottled, type CountedAttempt, type FailureThrottle, type ThrottleRule } from '../throttle/failure-throttle';
import type { AuthenticatorApps, SignInCheck } from '../two-step/authenticator-apps';
import { verifyPassword } from './passwords';
import { normaliseEmail, type RecentSignIn, type UsersRepository } from './users-repository';

/**
 * Wrong passwords allowed per account, and per client address, before sign-in is refused for a
 * while. Five a minute alone would be 300 an hour: an account also takes at most 100 an hour
 * (ASVS 2.2.1), counted apart in the same places (see passwordThrottle).
 */
export const LOGIN_THROTTLE = {
  account: { limit: 5, windowSeconds: 60 },
  accountHourly: { limit: 100, windowSeconds: 60 * 60 },
  address: { limit: 30, windowSeconds: 60 },
} satisfies Record<string, ThrottleRule>;

/** Wrong passwords for one account, whether at sign-in or when changing it, count together: a minute's and an hour's. */
const accountKey = (email: string) => `login:account:${normaliseEmail(email)}`;
const perMinuteAndHour = (key: string): Array<[string, ThrottleRule]> => [
  [key, LOGIN_THROTTLE.account],
  [`${key}:hour`, LOGIN_THROTTLE.accountHourly],
];

/**
 * Refused second steps allowed per account in a day, besides LOGIN_THROTTLE's five a minute, at
 * which a six-digit code falls within weeks to whoever has the password (NIST 800-63B §5.2.2
 * allows 100 failures in all). Only someone who has the password reaches them, so they are no
 * lever to lock the owner out; a success does not forget them, a new password does.
 */
export const SECOND_STEP_THROTTLE: ThrottleRule = { limit: 20, windowSeconds: 24 * 60 * 60 };
export const secondStepThrottle = (userId: string): [string, ThrottleRule] => [`two-step:refused:${userId}`, SECOND_STEP_THROTTLE];

/** Wrong passwords for one account from an address block it signed in from lately (see passwordThrottle). */
const fromKnownBlock = (email: string, block: string) => `${accountKey(email)}:from:${block}`;

/**
 * Wrong passwords count per account wherever they come from: five a minute from a thousand
 * addresses are five for the account. Alone, that let anyone keep the owner out by failing five
 * times a minute (ASVS 2.2.1 asks for no such lever). So a sign-in from an address block the
 * account signed in from lately counts apart, per account and block: the owner at home or at
 * work is not locked out by someone elsewhere, and a guesser anywhere else still gets five a
 * minute in all. Unknown emails have no such blocks, so the two are refused alike.
 */
function passwordThrottle(email: string, block: string, recent: readonly RecentSignIn[]): Array<[string, ThrottleRule]> {
  // An address a proxy could not tell ("unknown", as RFC 7239 allows) is no one's known block.
  const known = block !== addressBlock(undefined) && knownBlocks(recent).has(block);
  return perMinuteAndHour(known ? fromKnownBlock(email, block) : accountKey(email));
}

const knownBlocks = (recent: readonly RecentSignIn[]) => new Set(recent.flatMap(({ ip_address }) => (ip_address === null ? [] : [addressBlock(ip_address)])));

/** A sign-in being judged; `earlierDevices`: those of the account's latest sign-ins, read with them before the password was checked. */
type SigningIn = { email: string; password: string; code: string | undefined; client: ClientInfo; accountKeys: string[]; earlierDevices: string[] };

/** A second step that was given but refused: it counts as a wrong password. */
const CODE_REFUSALS = {
  wrong: () => AppError.authenticatorCodeWrong(),
  reused: () => AppError.authenticatorCodeReused(),
  'recovery-code-wrong': () => AppError.recoveryCodeWrong(),
} satisfies Record<Exclude<SignInCheck, 'accepted' | 'recovery-code-accepted' | 'not-needed' | 'missing'>, () => AppError>;
const isRefusal = (check: SignInCheck): check is keyof typeof CODE_REFUSALS => Object.hasOwn(CODE_REFUSALS, check);

/** Signing in with a password (and a second step), and proving the password again before a sensitive change: one throttle for both. */
export class SignIn {
  constructor(
    private readonly users: UsersRepository,
    private readonly sessions: UserSessionsService,
    private readonly throttle: FailureThrottle,
    private readonly authenticatorApps: AuthenticatorApps,
    private readonly options: { log: FastifyBaseLogger; notify: Notify; audit: AuditLog; background: BackgroundWork },
    private readonly clock: () => number,
  ) {}

  /**
   * Signs in with email and password, and the authenticator app's code (or a recovery code) when
   * two-step sign-in is on, opening a new user session. Wrong codes count with wrong passwords.
   */
  async login(email: string, password: string, code: string | undefined, client: ClientInfo): Promise<LoginResponse> {
    const block = addressBlock(client.ip);
    const recent = await this.users.recentSignIns(email);
    const account = passwordThrottle(email, block, recent);
    const throttleKeys: Array<[string, ThrottleRule]> = [...account, [`login:address:${block}`, LOGIN_THROTTLE.address]];
    const throttled = () => logRefusedAttempt(this.options.log, { attempt: 'sign-in', reason: 'throttled', ip: client.ip });
    const signingIn = { email, password, code, client, accountKeys: account.map(([key]) => key), earlierDevices: recent.map((signIn) => signIn.device_info) };
    return this.throttle.judge(throttleKeys, (attempt) => this.judgeSignIn(signingIn, attempt), throttled);
  }

  /** Forgets the account's failed sign-ins, wherever they were counted (a password reset by mail). */
  async forgetFailedSignIns(email: string): Promise<void> {
    const keys = [accountKey(email), ...[...knownBlocks(await this.users.recentSignIns(email))].map((block) => fromKnownBlock(email, block))];
    for (const [key] of keys.flatMap(perMinuteAndHour)) await this.throttle.reset(key);
  }

  /** The signed-in person proves it is them before a sensitive change; wrong guesses are throttled as sign-ins are. */
  async provePassword(auth: Authenticated, currentPassword: string, ip: string | undefined): Promise<void> {
    const refused = (reason: 'wrong-password' | 'throttled') => logRefusedAttempt(this.options.log, { attempt: 'password-check', reason, ip, userId: auth.userId });
    await this.throttle.judge(
      passwordThrottle(auth.user.email, addressBlock(ip), await this.users.recentSignIns(auth.user.email)),
      async (attempt) => {
        const user = await this.users.findById(auth.userId);
        if (!user || !(await verifyPassword(user.password_hash, currentPassword))) {
          refused('wrong-password');
          throw AppError.currentPasswordWrong();
        }
        await attempt.forgive();
      },
      () => refused('throttled'),
    );
  }

  /** The sign-in itself, its attempt counted: taken back unless a password or code was wrong. */
  private async judgeSignIn({ email, password, code, client, accountKeys, earlierDevices }: SigningIn, attempt: CountedAttempt): Promise<LoginResponse> {
    const user = await this.users.findByEmail(email);
    // Unknown emails verify against a dummy hash: same answer, same time.
    // No actor: whoever tried is not known to be the account's owner.
    const refused = (why: SignInRefusal) => {
      logRefusedAttempt(this.options.log, { attempt: 'sign-in', reason: user ? why : 'unknown-account', ip: client.ip, ...(user && { userId: user.id }) });
      return user && this.options.audit.record({ kind: 'sign-in-refused', userId: user.id, detail: why }, { actorId: null, client });
    };
    if (!(await verifyPassword(user?.password_hash, password)) || !user) {
      // Not awaited: a known address is answered as fast as an unknown one, which has nothing to record.
      const recording = refused('wrong-password');
      if (recording) this.options.background.start(recording, (error) => this.options.log.error({ err: error }, 'a refused sign-in could not be recorded'));
      throw AppError.invalidCredentials();
    }
    // Told only to whoever knows the password, so it gives nothing away to anyone else.
    if (user.disabled_at !== null) {
      await attempt.forgive();
      await refused('disabled');
      throw AppError.accountDisabled();
    }
    if (code !== undefined) {
      await this.throttle.check([secondStepThrottle(user.id)]).catch(async (error: unknown) => {
        await attempt.forgive(); // the password was right
        if (isThrottled(error)) logRefusedAttempt(this.options.log, { attempt: 'sign-in', reason: 'throttled', ip: client.ip, userId: user.id });
        throw error;
      });
    }
    const secondStep = await this.authenticatorApps.checkSignIn(user, code);
    if (secondStep === 'missing') {
      await attempt.forgive();
      throw AppError.authenticatorCodeRequired();
    }
    if (isRefusal(secondStep)) {
      const [refusedToday] = await this.throttle.recordFailure([secondStepThrottle(user.id)]);
      // Whoever gave it had the password: the owner hears of the first such sign-in of the day.
      if (refusedToday === 1) this.options.notify(user, twoStepNotice('code-refused'));
      await refused('wrong-code');
      throw CODE_REFUSALS[secondStep]();
    }
    await attempt.succeed(accountKeys);
    const amr = secondStep === 'not-needed' ? SIGN_IN_METHODS.password : SIGN_IN_METHODS.passwordAndCode;
    const tokens = await this.sessions.start(user.id, client, amr, earlierDevices);
    // Disabled, deleted, or the password changed, while signing in? Each ends every session after
    // writing the account, and this reads it after opening one: in either order, no session is left behind.
    const current = await this.users.findById(user.id);
    if (current && current.disabled_at !== null) {
      await this.sessions.endByRefreshToken(tokens.refresh);
      await refused('disabled');
      throw AppError.accountDisabled();
    }
    if (current?.password_hash !== user.password_hash) {
      await this.sessions.endByRefreshToken(tokens.refresh);
      throw AppError.invalidCredentials();
    }
    const detail = secondStep === 'recovery-code-accepted' ? `${amr} ${WITH_RECOVERY_CODE}` : amr;
    await this.options.audit.record({ kind: 'signed-in', userId: user.id, detail }, { actorId: user.id, client });
    if (tokens.newDevice) this.options.notify(user, newDeviceNotice(describeDevice(tokens.newDevice), client.ip, this.clock()));
    return {
      id: user.id,
      full_name: user.full_name,
      email: user.email,
      profile_picture: user.profile_picture,
      access: tokens.access,
      refresh: tokens.refresh,
    };
  }
}
