import type { ColumnType } from 'kysely';

/**
 * Table shapes as Kysely sees them. Both dialects store the same values: times are epoch
 * milliseconds (bigint) and flags are 0/1 integers, so one repository layer serves SQLite
 * and PostgreSQL alike; repositories turn rows into domain values.
 */
export type Flag = 0 | 1;

export interface UsersTable {
  id: string;
  email: string;
  full_name: string;
  phone_number: string | null;
  password_hash: string;
  is_admin: Flag;
  email_verified: Flag;
  avatar_verified: Flag;
  verified: Flag;
  profile_picture: string | null;
  created_at: number;
  updated_at: number;
  last_login: number | null;
  /** JSON array of group names, set by administrators ('[]' by default). */
  groups: ColumnType<string, string | undefined, string>;
  /** Unique, lower-case (contract usernameField); every account has one (left out only by migration tests). */
  username: ColumnType<string, string | undefined, string>;
  /** When an administrator disabled the account (it cannot sign in); null: enabled. */
  disabled_at: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface UserSessionsTable {
  id: string;
  user_id: string;
  device_info: string;
  ip_address: string | null;
  issued_at: number;
  expires_at: number;
  last_active: number;
  revoked_at: number | null;
  /** How the sign-in behind it proved who it was: OIDC's `amr` values (RFC 8176), space-separated. */
  amr: string;
}

/** One row per refresh token until it is pruned after its session ends; the secret part is kept only as a hash. */
export interface RefreshTokensTable {
  /** The token's selector (see newSplitToken); for tokens issued before selectors, the whole token's SHA-256. */
  token_key: string;
  /** The SHA-256 of the token's secret part; null for tokens issued before selectors. */
  verifier_hash: string | null;
  session_id: string;
  /** The key of the token this one replaced; null for the first token of a session. Nothing looks it up. */
  parent_key: string | null;
  created_at: number;
  /** Set when the token was exchanged for a new one (or withdrawn); a later use is a replay. */
  rotated_at: number | null;
  /** The key of the token that replaced this one when it was exchanged (null if withdrawn otherwise). */
  replaced_by: string | null;
}

export interface SigningKeysTable {
  kid: string;
  alg: string;
  private_jwk: string;
  public_jwk: string;
  created_at: number;
  /** From this moment the key no longer signs; it stays published until `expires_at`. */
  retired_at: number | null;
  expires_at: number | null;
}

/** Failure counters for throttling, keyed by what failed (an account, an address). */
export interface ThrottleTable {
  key: string;
  window_start: number;
  failures: number;
  /** Of those, the sign-in attempts still being judged (FailureThrottle.judge), on any replica. */
  judging: ColumnType<number, number | undefined, number>;
}

/** The one live email code of a user (a new request replaces it). */
export interface EmailOtpsTable {
  user_id: string;
  code_hash: string;
  created_at: number;
  expires_at: number;
  attempts: number;
}

/** Who became the first administrator: the one row (id 1) that settles a race on a fresh install. */
export interface FirstAdministratorTable {
  id: number;
  user_id: string;
  claimed_at: number;
}

/** How far the hourly prune has gone (ExpiredRows): the one row, id 1. */
export interface PrunedThroughTable {
  id: number;
  at: number;
}

/** A mailed link to set a new password: the token is only in the mail, its SHA-256 here. */
export interface PasswordResetsTable {
  token_hash: string;
  user_id: string;
  created_at: number;
  expires_at: number;
}

/** Two-step sign-in: the secret shared with a person's authenticator app (RFC 6238). */
export interface AuthenticatorAppsTable {
  user_id: string;
  /** Base32, as the app was given it. The app needs the secret itself, so it cannot be hashed. */
  secret: string;
  /** The time step of the last code accepted: a code works once, and never an older one after it. */
  last_used_step: number;
  created_at: number;
  /** Set up while the account's email was unproved (before that was refused): a reset by mail turns it off. */
  set_up_unproved: ColumnType<Flag, Flag | undefined, Flag>;
}

/** A secret given for setting up an app, until a code made from it turns two-step sign-in on. */
export interface AuthenticatorAppSetupsTable {
  user_id: string;
  secret: string;
  created_at: number;
}

/** Two-step sign-in's way in without the phone: each code works once. */
export interface RecoveryCodesTable {
  user_id: string;
  /** SHA-256 (base64url) of the code, lower case without its hyphen: 40 random bits each need no slow hash. */
  code_hash: string;
}

export interface AvatarsTable {
  /** Random and unguessable: the picture's URL is public so services can show it. */
  id: string;
  user_id: string;
  content_type: string;
  bytes: Buffer;
  created_at: number;
}

/** An OpenID Connect client. Lists are JSON arrays of strings; the secret is kept only hashed. */
export interface ApiServicesTable {
  id: string;
  name: string;
  description: string;
  client_id: string;
  client_secret_hash: string;
  redirect_uris: string;
  post_logout_redirect_uris: string;
  scopes: string;
  grant_types: string;
  is_active: Flag;
  icon_url: string | null;
  id_token_signed_response_alg: string;
  created_at: number;
  updated_at: number;
  /** JSON array of group names; a person in none of them is refused. '[]': everyone may sign in. */
  allowed_groups: ColumnType<string, string | undefined, string>;
  /** Where people open it (its home page), for their Home; null: not listed there. */
  launch_url: ColumnType<string | null, string | null | undefined, string | null>;
  /** 1: only sign-ins made with two steps (amr mfa) may use it. */
  require_two_step: ColumnType<Flag, Flag | undefined, Flag>;
  /** 1: a public client (RFC 6749 §2.1), with no secret; it must use PKCE. Its client_secret_hash is of a secret nobody was given. */
  public_client: ColumnType<Flag, Flag | undefined, Flag>;
  /** The Idempotency-Key it was created with (unique), to find it when that creation is sent again. */
  creation_key: ColumnType<string | null, string | null | undefined, string | null>;
}

/** One per successful code exchange: what a service holds on behalf of a user. */
export interface ServiceSessionsTable {
  id: string;
  service_id: string;
  user_id: string;
  user_session_id: string | null;
  scope: string;
  ip_address: string | null;
  auth_time: number;
  /** How the sign-in behind it proved who it was: OIDC's `amr` values (RFC 8176), space-separated. */
  amr: string;
  issued_at: number;
  expires_at: number;
  last_active: number;
  revoked_at: number | null;
}

export interface OauthCodesTable {
  code_hash: string;
  service_id: string;
  user_id: string;
  user_session_id: string;
  redirect_uri: string;
  /** Whether the authorization request named redirect_uri (else the one registered was used): the token request must then repeat it. */
  redirect_uri_sent: ColumnType<Flag, Flag | undefined, Flag>;
  scope: string;
  nonce: string | null;
  code_challenge: string | null;
  code_challenge_method: string | null;
  auth_time: number;
  /** How the sign-in behind it proved who it was: OIDC's `amr` values (RFC 8176), space-separated. */
  amr: string;
  ip_address: string | null;
  created_at: number;
  expires_at: number;
  used_at: number | null;
  /** The session its exchange created, revoked if the code is replayed. */
  service_session_id: string | null;
}

/** Opaque access and refresh tokens issued to services, kept only hashed. */
export interface ServiceTokensTable {
  /** The token's selector (see newSplitToken); for tokens issued before selectors, the whole token's SHA-256. */
  token_key: string;
  /** The SHA-256 of the token's secret part; null for tokens issued before selectors. */
  verifier_hash: string | null;
  kind: 'access' | 'refresh';
  /** The scopes this token carries (a refresh may narrow an access token's; a refresh token keeps the grant's). */
  scope: string;
  service_session_id: string;
  created_at: number;
  expires_at: number;
  /** A refresh token is used once; an access token is never marked. */
  used_at: number | null;
}

export interface ConsentsTable {
  user_id: string;
  service_id: string;
  scope: string;
  granted_at: number;
}

/** One line of the audit log: the account it concerns, who acted (themselves, an administrator, or nobody: the command line), from where. */
export interface AuditEventsTable {
  /** Time-ordered (UUIDv7): the newest sort last within the same millisecond too. */
  id: string;
  at: number;
  kind: string;
  user_id: string | null;
  actor_id: string | null;
  service_id: string | null;
  ip_address: string | null;
  /** As user_sessions.device_info: the browser and system, parsed from the user agent. */
  device_info: string | null;
  /** What the kind leaves open: how a password changed, why a sign-in was refused, a deleted record's name. */
  detail: string | null;
}

export interface DB {
  users: UsersTable;
  user_sessions: UserSessionsTable;
  refresh_tokens: RefreshTokensTable;
  signing_keys: SigningKeysTable;
  throttle: ThrottleTable;
  email_otps: EmailOtpsTable;
  password_resets: PasswordResetsTable;
  first_administrator: FirstAdministratorTable;
  pruned_through: PrunedThroughTable;
  authenticator_apps: AuthenticatorAppsTable;
  authenticator_app_setups: AuthenticatorAppSetupsTable;
  recovery_codes: RecoveryCodesTable;
  avatars: AvatarsTable;
  api_services: ApiServicesTable;
  service_sessions: ServiceSessionsTable;
  oauth_codes: OauthCodesTable;
  service_tokens: ServiceTokensTable;
  consents: ConsentsTable;
  audit_events: AuditEventsTable;
}
