import { createPrivateKey, randomUUID, type JsonWebKey, type KeyObject } from 'node:crypto';
import { exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from 'jose';
import { isUniqueViolation } from '../db/constraint-violations';
import type { Database } from '../db/database';

/** ES256 signs first-party access tokens; RS256 signs ID tokens (the OIDC default). */
export type SigningAlg = 'ES256' | 'RS256';
export const SIGNING_ALGS: readonly SigningAlg[] = ['ES256', 'RS256'];

/** A private key that signs, as node:crypto takes it (see signJwt). */
export type ActiveKey = { kid: string; alg: SigningAlg; key: KeyObject };
/** A key that signs until `until` (a retiring key), or from then on (until: null). */
type SigningCandidate = ActiveKey & { until: number | null };

/**
 * Signing keys live in the database so every replica signs and verifies with the same set.
 * Private keys are read once per process; public keys are reloaded when an unknown `kid`
 * shows up (another replica rotated).
 *
 * The JWKS is served from memory (a database read per request halved its throughput), so a
 * rotated-in key can reach relying parties late: up to RELOAD_AFTER_MS until every replica
 * serves it, plus JWKS_MAX_AGE_SECONDS in their HTTP caches. A new key is therefore published
 * first and signs only PUBLISH_AHEAD_MS later; until then the old key goes on signing.
 */
// How often a process looks for a key another process rotated in.
const RELOAD_AFTER_MS = 60_000;
const UNKNOWN_KID_RELOAD_MS = 1_000;
/** How long relying parties may cache the JWKS. */
export const JWKS_MAX_AGE_SECONDS = 300;
export const PUBLISH_AHEAD_MS = RELOAD_AFTER_MS + JWKS_MAX_AGE_SECONDS * 1000;

export class SigningKeys {
  private candidates = new Map<string, SigningCandidate>();
  private publicKeys = new Map<string, CryptoKey>();
  /** Keys no longer published whose ID tokens may still come back as id_token_hint (see hintKey). */
  private hintKeys = new Map<string, CryptoKey>();
  private jwks: JWK[] = [];
  private loadedAt = 0;

  /**
   * `hintsKeptMs`: how long after a key is no longer published the ID tokens it signed are still
   * read as id_token_hint. A service sends the ID token of its sign-in when signing out, however
   * old; a rotation must not turn that sign-out into a question.
   */
  constructor(
    private readonly db: Database,
    private readonly clock: () => number,
    private readonly hintsKeptMs = 0,
  ) {}

  /** Creates a key for each algorithm that has none in use, then loads them. */
  async ensure(): Promise<void> {
    for (const alg of SIGNING_ALGS) {
      if (await this.currentRow(alg)) continue;
      try {
        await this.create(alg);
      } catch (error) {
        // Another replica created it first (one key in use per algorithm): use theirs.
        if (!isUniqueViolation(error)) throw error;
      }
    }
    await this.load();
  }

  /**
   * Publishes a new key for `alg` now, to sign from `PUBLISH_AHEAD_MS` on; the old key signs
   * until then and stays published `keepPublishedForSeconds` after, for what it signed.
   */
  async rotate(alg: SigningAlg, keepPublishedForSeconds: number): Promise<{ kid: string; signsFrom: number }> {
    // Made before the old key is retired, and stored with its retiring in one transaction: a
    // rotation stopped midway (Ctrl+C while the RSA key is made) leaves the old key signing.
    const made = await this.make(alg);
    const signsFrom = this.clock() + PUBLISH_AHEAD_MS;
    await this.db.transaction().execute(async (tx) => {
      await tx
        .updateTable('signing_keys')
        .set({ retired_at: signsFrom, expires_at: signsFrom + keepPublishedForSeconds * 1000 })
        .where('alg', '=', alg)
        .where('retired_at', 'is', null)
        .execute();
      await tx.insertInto('signing_keys').values(made).execute();
    });
    await this.load();
    return { kid: made.kid, signsFrom };
  }

  /** The key that signs now; a rotation by another process is picked up within a minute. */
  async signingKey(alg: SigningAlg): Promise<ActiveKey> {
    if (!this.loadedWithin(RELOAD_AFTER_MS)) await this.load();
    const now = this.clock();
    let retiring: SigningCandidate | undefined;
    let next: SigningCandidate | undefined;
    for (const candidate of this.candidates.values()) {
      if (candidate.alg !== alg) continue;
      if (candidate.until === null) next = candidate;
      // Rotated twice within the lead: the older retiring key signs until its end, then the newer
      // one, each published PUBLISH_AHEAD_MS before it signs (the newer was published only at the
      // second rotation).
      else if (candidate.until > now && candidate.until < (retiring?.until ?? Infinity)) retiring = candidate;
    }
    const key = retiring ?? next;
    if (!key) throw new Error(`no ${alg} signing key loaded`);
    return key;
  }

  /**
   * The public key for `kid`, or undefined when no published key has it. Reloaded within a
   * minute, as for signing: keys another process deleted (`rotate-keys --now`) were otherwise
   * trusted here for as long as tokens came signed by them.
   */
  async verificationKey(kid: string): Promise<CryptoKey | undefined> {
    // At most one reload a second, so tokens with made-up kids cannot drive database reads.
    if (!this.loadedWithin(this.publicKeys.has(kid) ? RELOAD_AFTER_MS : UNKNOWN_KID_RELOAD_MS)) await this.load();
    return this.publicKeys.get(kid);
  }

  /** The public key for an id_token_hint's `kid`: a published key, or one unpublished within `hintsKeptMs`. */
  async hintKey(kid: string): Promise<CryptoKey | undefined> {
    return (await this.verificationKey(kid)) ?? this.hintKeys.get(kid);
  }

  /** Public JWKs of every key still published, as of the last load (at most a minute ago). */
  async publishedJwks(): Promise<JWK[]> {
    if (!this.loadedWithin(RELOAD_AFTER_MS)) await this.load();
    return this.jwks;
  }

  /**
   * Whether the keys were loaded at most `ms` ago. A load "in the future" is not recent: after the
   * clock was set back, keys another process deleted were used until the clock caught up.
   */
  private loadedWithin(ms: number): boolean {
    const since = this.clock() - this.loadedAt;
    return since >= 0 && since <= ms;
  }

  private async create(alg: SigningAlg): Promise<string> {
    const made = await this.make(alg);
    await this.db.insertInto('signing_keys').values(made).execute();
    return made.kid;
  }

  /** A new key pair as its row, not yet stored. */
  private async make(alg: SigningAlg) {
    const kid = randomUUID();
    const pair = await generateKeyPair(alg, { extractable: true, ...(alg === 'RS256' ? { modulusLength: 2048 } : {}) });
    const publicJwk = { ...(await exportJWK(pair.publicKey)), kid, alg, use: 'sig' };
    const privateJwk = { ...(await exportJWK(pair.privateKey)), kid, alg };
    return { kid, alg, private_jwk: JSON.stringify(privateJwk), public_jwk: JSON.stringify(publicJwk), created_at: this.clock(), retired_at: null, expires_at: null };
  }

  /**
   * For keys that may have leaked (a database copy gone astray): a new key for each algorithm
   * signs at once, and every other key is deleted, private half and all. What they signed stops
   * verifying: first-party access tokens (the app refreshes them with its opaque refresh token),
   * ID tokens and their hints. Other replicas follow within RELOAD_AFTER_MS, or at once for a
   * token signed by a new kid; relying parties fetch the JWKS again on meeting one.
   */
  async replaceAll(): Promise<Array<{ alg: SigningAlg; kid: string }>> {
    const made: Array<Awaited<ReturnType<SigningKeys['make']>>> = [];
    for (const alg of SIGNING_ALGS) made.push(await this.make(alg));
    await this.db.transaction().execute(async (tx) => {
      await tx.deleteFrom('signing_keys').execute();
      await tx.insertInto('signing_keys').values(made).execute();
    });
    this.candidates.clear();
    this.publicKeys.clear();
    this.hintKeys.clear();
    await this.load();
    return made.map(({ alg, kid }) => ({ alg: alg as SigningAlg, kid }));
  }

  /** The key of `alg` that is not retiring (there is one at most). */
  private currentRow(alg: SigningAlg) {
    return this.db.selectFrom('signing_keys').select('kid').where('alg', '=', alg).where('retired_at', 'is', null).executeTakeFirst();
  }

  /** The keys still published, and those unpublished within `hintsKeptMs`. */
  private publishedRows() {
    const now = this.clock();
    return this.db
      .selectFrom('signing_keys')
      .selectAll()
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now - this.hintsKeptMs)]))
      .orderBy('created_at', 'desc')
      .execute();
  }

  private async load(): Promise<void> {
    const now = this.clock();
    this.loadedAt = now;
    const all = await this.publishedRows();
    const rows = all.filter((row) => row.expires_at === null || row.expires_at > now);
    const hintKeys = new Map<string, CryptoKey>();
    for (const row of all) {
      if (!rows.includes(row)) hintKeys.set(row.kid, this.hintKeys.get(row.kid) ?? this.publicKeys.get(row.kid) ?? ((await importJWK(JSON.parse(row.public_jwk) as JWK, row.alg)) as CryptoKey));
    }
    this.hintKeys = hintKeys;
    const publicKeys = new Map<string, CryptoKey>();
    const candidates = new Map<string, SigningCandidate>();
    for (const row of rows) {
      publicKeys.set(row.kid, this.publicKeys.get(row.kid) ?? ((await importJWK(JSON.parse(row.public_jwk) as JWK, row.alg)) as CryptoKey));
      if (row.retired_at !== null && row.retired_at <= now) continue;
      const key = this.candidates.get(row.kid)?.key ?? createPrivateKey({ key: JSON.parse(row.private_jwk) as JsonWebKey, format: 'jwk' });
      candidates.set(row.kid, { kid: row.kid, alg: row.alg as SigningAlg, key, until: row.retired_at });
    }
    this.publicKeys = publicKeys;
    this.candidates = candidates;
    this.jwks = rows.map((row) => JSON.parse(row.public_jwk) as JWK);
  }
}
