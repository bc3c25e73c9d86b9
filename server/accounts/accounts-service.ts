import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { LoginResponse, Profile } from '../../contract/accounts';
import type { SignInRefusal } from '../../contract/audit';
import type { VerificationStatus } from '../../contract/verification';
import type { AuditLog } from '../audit/audit-log';
import { isUniqueViolation } from '../db/constraint-violations';
import { AppError } from '../errors';
import { newDeviceNotice } from '../mail/new-device-mail';
import { twoStepNotice } from '../mail/two-step-mail';
import { PASSWORD_NOTICES, type PasswordChange } from '../mail/password-changed-mail';
import type { Notify } from '../mail/security-notice';
import type { BackgroundWork } from '../operations/background-work';
import { logRefusedAttempt } from '../operations/refused-attempts';
import type { ServiceSessionsRepository } from '../oauth/service-sessions-repository';
import { describeDevice } from '../sessions/device-info';
import { SIGN_IN_METHODS, type Authenticated, type ClientInfo, type UserSessionsService } from '../sessions/user-sessions-service';
import { addressBlock } from '../throttle/address-block';
import { isThrottled, type CountedAttempt, type FailureThrottle, type ThrottleRule } from '../throttle/failure-throttle';
import type { AuthenticatorApps, SignInCheck } from '../two-step/authenticator-apps';
import { hashPassword, verifyPassword } from './passwords';
import { isUsernameTaken, normaliseEmail, toProfile, type UserRow, type UsersRepository } from './users-repository';
import { refuseCommonPassword } from './common-passwords';

/**
 * Wrong passwords allowed per account, and per client address, before sign-in is refused for a
 * while. Five a minute alone would be 300 an hour: an account also takes at most 100 an hour
 * (ASVS 2.2.1), counted apart in the same places (see signInThrottle).
 */
export const LOGIN_THROTTLE = {
  account: { limit: 5, windowSeconds: 60 },
  accountHourly: { limit: 100, windowSeconds: 60 * 60 },
  address: { limit: 30, windowSeconds: 60 },
} satisfies Record<string, ThrottleRule>;

/**
 * Registrations answered "email is already registered" allowed per address block before every
 * registration from there is refused for a while: each such answer tells that an account exists.
 */
export const REGISTER_THROTTLE: ThrottleRule = { limit: 10, windowSeconds: 10 * 60 };

/** The one answer REGISTER_THROTTLE counts. */
const isEmailTaken = (error: unknown) => error instanceof AppError && error.message === AppError.emailTaken().message;

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

/** Wrong passwords for one account from an address block it signed in from lately (see signInThrottle). */
const fromKnownBlock = (email: string, block: string) => `${accountKey(email)}:from:${block}`;

/** A second step that was given but refused: it counts as a wrong password. */
const CODE_REFUSALS = {
  wrong: () => AppError.authenticatorCodeWrong(),
  reused: () => AppError.authenticatorCodeReused(),
  'recovery-code-wrong': () => AppError.recoveryCodeWrong(),
} satisfies Record<Exclude<SignInCheck, 'accepted' | 'not-needed' | 'missing'>, () => AppError>;

export type Registration = { full_name: string; email: string; phone_number?: string | undefined; password: string };

export class AccountsService {
  constructor(
    private readonly users: UsersRepository,
    private readonly sessions: UserSessionsService,
    private readonly serviceSessions: ServiceSessionsRepository,
    private readonly throttle: FailureThrottle,
    private readonly authenticatorApps: AuthenticatorApps,
    private readonly options: { registration: 'open' | 'closed'; log: FastifyBaseLogger; notify: Notify; audit: AuditLog; background: BackgroundWork },
    private readonly clock: () => number,
  ) {}

  /** Whether anyone may register now: with REGISTRATION=closed, only until an administrator exists. */
  async registrationOpen(): Promise<boolean> {
    return this.options.registration === 'open' || !(await this.users.adminExists());
  }

  /**
   * Registration from the sign-up form. Taken emails are counted per address block, the other
   * answers taken back, so successful sign-ups are never slowed. Past the limit every registration
   * from there is refused for a while: refusing only taken emails would still tell them apart.
   */
  async signUp(input: Registration, ip: string | undefined): Promise<{ id: string; isAdmin: boolean }> {
    const keys: Array<[string, ThrottleRule]> = [[`register:address:${addressBlock(ip)}`, REGISTER_THROTTLE]];
    const throttled = () => logRefusedAttempt(this.options.log, { attempt: 'registration', reason: 'throttled', ip });
    return this.throttle.judge(
      keys,
      async (attempt) => {
        try {
          const created = await this.register(input);
          await attempt.forgive();
          return created;
        } catch (error) {
          if (!isEmailTaken(error)) await attempt.forgive();
          throw error;
        }
      },
      throttled,
    );
  }

  /**
   * Creates an account, with the username given or else one made from the email. While no
   * administrator exists, the new account becomes one; of registrations at once, only one does.
   */
  async register(input: Registration & { username?: string }, as: { admin?: boolean; bypassClosedRegistration?: boolean } = {}): Promise<{ id: string; isAdmin: boolean }> {
    const closed = this.options.registration === 'closed' && !as.bypassClosedRegistration;
    // Refused before the password is hashed; decided again as the account is written (a race to be first).
    if (closed && (await this.users.adminExists())) throw AppError.registrationClosed();
    refuseCommonPassword(input.password);
    if (await this.users.findByEmail(input.email)) throw AppError.emailTaken();
    const id = randomUUID();
    const passwordHash = await hashPassword(input.password);
    const admit = (firstAdmin: boolean) => {
      if (closed && !firstAdmin) throw AppError.registrationClosed();
    };
    let firstAdmin = false;
    for (let attempt = 1; ; attempt++) {
      try {
        firstAdmin = await this.users.insert(
          {
            id,
            email: input.email,
            username: input.username ?? (await this.users.freeUsername(input.email)),
            full_name: input.full_name,
            phone_number: input.phone_number ?? null,
            password_hash: passwordHash,
            is_admin: as.admin === true,
            now: this.clock(),
          },
          admit,
        );
        break;
      } catch (error) {
        if (isUsernameTaken(error)) {
          // A made-up username can lose a race with someone registering alike: make the next one.
          if (!input.username && attempt < 5) continue;
          throw AppError.usernameTaken();
        }
        // Two registrations of one email raced past the check above.
        if (isUniqueViolation(error)) throw AppError.emailTaken();
        throw error;
      }
    }
    if (firstAdmin && !as.admin) this.options.log.info({ userId: id }, 'no administrator existed: the new account is the administrator');
    return { id, isAdmin: as.admin === true || firstAdmin };
  }

  /**
   * Signs in with email and password, and the authenticator app's code (or a recovery code) when
   * two-step sign-in is on, opening a new user session. Wrong codes count with wrong passwords.
   */
  async login(email: string, password: string, code: string | undefined, client: ClientInfo): Promise<LoginResponse> {
    const block = addressBlock(client.ip);
    const account = await this.signInThrottle(email, block);
    const throttleKeys: Array<[string, ThrottleRule]> = [...account, [`login:address:${block}`, LOGIN_THROTTLE.address]];
    const throttled = () => logRefusedAttempt(this.options.log, { attempt: 'sign-in', reason: 'throttled', ip: client.ip });
    const accountKeys = account.map(([key]) => key);
    return this.throttle.judge(throttleKeys, (attempt) => this.signIn(email, password, code, client, attempt, accountKeys), throttled);
  }

  /**
   * Wrong passwords count per account wherever they come from: five a minute from a thousand
   * addresses are five for the account. Alone, that let anyone keep the owner out by failing five
   * times a minute (ASVS 2.2.1 asks for no such lever). So a sign-in from an address block the
   * account signed in from lately counts apart, per account and block: the owner at home or at
   * work is not locked out by someone elsewhere, and a guesser anywhere else still gets five a
   * minute in all. Unknown emails have no such blocks, so the two are refused alike.
   */
  private async signInThrottle(email: string, block: string): Promise<Array<[string, ThrottleRule]>> {
    const known = block !== addressBlock(undefined) && (await this.knownBlocks(email)).has(block);
    return perMinuteAndHour(known ? fromKnownBlock(email, block) : accountKey(email));
  }

  private async knownBlocks(email: string): Promise<Set<string>> {
    return new Set((await this.users.recentSignInAddresses(email)).map(addressBlock));
  }

  /** Forgets the account's failed sign-ins, wherever they were counted (a password reset by mail). */
  async forgetFailedSignIns(email: string): Promise<void> {
    const keys = [accountKey(email), ...[...(await this.knownBlocks(email))].map((block) => fromKnownBlock(email, block))];
    for (const [key] of keys.flatMap(perMinuteAndHour)) await this.throttle.reset(key);
  }

  /**
   * After a reset by mail of an account whose email was never proved: it may have been someone
   * else's registration of the address, and a second step they set up would keep the mailbox's
   * owner out still. Only one set up while the email was unproved: an email is unproved also
   * when an administrator changed it, and the second step its owner set up stays. Answers
   * whether one was turned off.
   */
  async dropUnprovenSecondStep(user: UserRow): Promise<boolean> {
    if (user.email_verified === 1) return false;
    return (await this.authenticatorApps.turnOff(user, 'self', 'set-up-unproved')).wasOn;
  }

  /** The sign-in itself, its attempt counted: taken back unless a password or code was wrong. */
  private async signIn(email: string, password: string, code: string | undefined, client: ClientInfo, attempt: CountedAttempt, accountKeys: string[]): Promise<LoginResponse> {
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
    if (secondStep !== 'accepted' && secondStep !== 'not-needed') {
      const [refusedToday] = await this.throttle.recordFailure([secondStepThrottle(user.id)]);
      // Whoever gave it had the password: the owner hears of the first such sign-in of the day.
      if (refusedToday === 1) this.options.notify(user, twoStepNotice('code-refused'));
      await refused('wrong-code');
      throw CODE_REFUSALS[secondStep]();
    }
    await attempt.succeed(accountKeys);
    const amr = secondStep === 'accepted' ? SIGN_IN_METHODS.passwordAndCode : SIGN_IN_METHODS.password;
    const tokens = await this.sessions.start(user.id, client, amr);
    // Disabled, or the password changed, while signing in? Both end every session after writing
    // the account, and this reads it after opening one: in either order, no session is left behind.
    const current = await this.users.findById(user.id);
    if (current?.disabled_at !== null) {
      await this.sessions.endByRefreshToken(tokens.refresh);
      await refused('disabled');
      throw AppError.accountDisabled();
    }
    if (current.password_hash !== user.password_hash) {
      await this.sessions.endByRefreshToken(tokens.refresh);
      throw AppError.invalidCredentials();
    }
    await this.options.audit.record({ kind: 'signed-in', userId: user.id, detail: amr }, { actorId: user.id, client });
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

  async profile(userId: string): Promise<Profile> {
    const user = await this.users.findById(userId);
    if (!user) throw AppError.invalidToken();
    return toProfile(user);
  }

  async verificationStatus(userId: string): Promise<VerificationStatus> {
    const { email_verified, avatar_verified, verified, profile_picture } = await this.profile(userId);
    return { email_verified, avatar_verified, verified, profile_picture };
  }

  /** The last verification step: allowed once the email and the picture are both verified. */
  async completeVerification(userId: string): Promise<VerificationStatus> {
    const status = await this.verificationStatus(userId);
    if (!status.email_verified || !status.avatar_verified) throw AppError.verificationIncomplete();
    if (!status.verified && !(await this.users.markVerified(userId, this.clock()))) throw AppError.verificationIncomplete();
    return { ...status, verified: true };
  }

  /** Sets a new password and ends every session of the account, at its services too (the command line's reset); answers the account's ID. */
  async resetPassword(email: string, password: string): Promise<string> {
    const { id } = await this.accountByEmail(email);
    await this.setPassword(id, password, 'set-by-administrator');
    return id;
  }

  /** The account with this email, for the command line; a clear error when there is none. */
  async accountByEmail(email: string): Promise<UserRow> {
    const user = await this.users.findByEmail(email);
    if (!user) throw AppError.notFound('account');
    return user;
  }

  /**
   * The signed-in person changes their password, proving it is them with the current one (ASVS
   * 2.1.5, 2.1.6). Wrong guesses are throttled as sign-ins are; their other sessions and their services' sessions end.
   */
  async changePassword(auth: Authenticated, currentPassword: string, password: string, ip: string | undefined): Promise<void> {
    refuseCommonPassword(password); // before the current one is judged, which forgives failed guesses
    await this.provePassword(auth, currentPassword, ip);
    await this.setPassword(auth.userId, password, 'changed', auth.sessionId);
  }

  /** The signed-in person proves it is them before a sensitive change; wrong guesses are throttled as sign-ins are. */
  async provePassword(auth: Authenticated, currentPassword: string, ip: string | undefined): Promise<void> {
    const refused = (reason: 'wrong-password' | 'throttled') => logRefusedAttempt(this.options.log, { attempt: 'password-check', reason, ip, userId: auth.userId });
    await this.throttle.judge(
      await this.signInThrottle(auth.user.email, addressBlock(ip)),
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

  /**
   * Sets a new password, ends every session of the account but `keepSessionId` and every service
   * session (ASVS 3.3.3: whoever had the old password keeps no service either), and tells the owner by mail.
   */
  async setPassword(userId: string, password: string, how: PasswordChange, keepSessionId?: string): Promise<void> {
    refuseCommonPassword(password);
    const passwordHash = await hashPassword(password);
    const now = this.clock();
    // One commit: a new password stored with the sign-outs left undone (a failure or a kill
    // between them) left whoever had the old one signed in, and the old one no longer worked.
    await this.users.setPasswordHash(userId, passwordHash, now, async (tx) => {
      await this.sessions.revokeAllForUser(userId, keepSessionId, tx);
      // After the user sessions: a code asked for from one of them can then no longer open a service session.
      await this.serviceSessions.revokeAllForUser(userId, now, tx);
    });
    // Whoever guessed at the second step with the old password has to start again.
    await this.throttle.reset(secondStepThrottle(userId)[0]);
    const owner = await this.users.findById(userId);
    if (owner) this.options.notify(owner, PASSWORD_NOTICES[how]);
  }

}
