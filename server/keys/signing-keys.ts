import { randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from 'jose';
import { isUniqueViolation } from '../accounts/users-repository';
import type { Database } from '../db/database';

/** ES256 signs first-party access tokens; RS256 signs ID tokens (the OIDC default). */
export type SigningAlg = 'ES256' | 'RS256';
export const SIGNING_ALGS: readonly SigningAlg[] = ['ES256', 'RS256'];

export type ActiveKey = { kid: string; alg: SigningAlg; key: CryptoKey };

/**
 * Signing keys live in the database so every replica signs and verifies with the same set.
 * Private keys are read once per process; public keys are reloaded when an unknown `kid`
 * shows up (another replica rotated).
 */
// How often a process looks for a key another process rotated in.
const RELOAD_AFTER_MS = 60_000;

export class SigningKeys {
  private active = new Map<SigningAlg, ActiveKey>();
  private publicKeys = new Map<string, CryptoKey>();
  private loadedAt = 0;

  constructor(
    private readonly db: Database,
    private readonly clock: () => number,
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

  /** Retires the signing key of `alg` in favour of a new one; the old stays published until it expires. */
  async rotate(alg: SigningAlg, keepPublishedForSeconds: number): Promise<string> {
    const now = this.clock();
    await this.db
      .updateTable('signing_keys')
      .set({ retired_at: now, expires_at: now + keepPublishedForSeconds * 1000 })
      .where('alg', '=', alg)
      .where('retired_at', 'is', null)
      .execute();
    const kid = await this.create(alg);
    await this.load();
    return kid;
  }

  /** The key that signs now; a rotation by another process is picked up within a minute. */
  async signingKey(alg: SigningAlg): Promise<ActiveKey> {
    if (this.clock() - this.loadedAt > RELOAD_AFTER_MS) await this.load();
    const key = this.active.get(alg);
    if (!key) throw new Error(`no ${alg} signing key loaded`);
    return key;
  }

  /** The public key for `kid`, or undefined when no published key has it. */
  async verificationKey(kid: string): Promise<CryptoKey | undefined> {
    if (!this.publicKeys.has(kid)) await this.load();
    return this.publicKeys.get(kid);
  }

  /**
   * Public JWKs of every key still published, read from the database on every call: a key
   * another process just rotated in is published at once, before any process signs with it.
   */
  async publishedJwks(): Promise<JWK[]> {
    const rows = await this.publishedRows();
    return rows.map((row) => JSON.parse(row.public_jwk) as JWK);
  }

  private async create(alg: SigningAlg): Promise<string> {
    const kid = randomUUID();
    const pair = await generateKeyPair(alg, { extractable: true, ...(alg === 'RS256' ? { modulusLength: 2048 } : {}) });
    const publicJwk = { ...(await exportJWK(pair.publicKey)), kid, alg, use: 'sig' };
    const privateJwk = { ...(await exportJWK(pair.privateKey)), kid, alg };
    await this.db
      .insertInto('signing_keys')
      .values({
        kid,
        alg,
        private_jwk: JSON.stringify(privateJwk),
        public_jwk: JSON.stringify(publicJwk),
        created_at: this.clock(),
        retired_at: null,
        expires_at: null,
      })
      .execute();
    return kid;
  }

  private currentRow(alg: SigningAlg) {
    return this.db
      .selectFrom('signing_keys')
      .selectAll()
      .where('alg', '=', alg)
      .where('retired_at', 'is', null)
      .orderBy('created_at', 'desc')
      .orderBy('kid')
      .executeTakeFirst();
  }

  private publishedRows() {
    const now = this.clock();
    return this.db
      .selectFrom('signing_keys')
      .selectAll()
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
      .orderBy('created_at', 'desc')
      .execute();
  }

  private async load(): Promise<void> {
    this.loadedAt = this.clock();
    const rows = await this.publishedRows();
    const publicKeys = new Map<string, CryptoKey>();
    for (const row of rows) {
      publicKeys.set(row.kid, (await importJWK(JSON.parse(row.public_jwk) as JWK, row.alg)) as CryptoKey);
    }
    this.publicKeys = publicKeys;
    for (const alg of SIGNING_ALGS) {
      const row = await this.currentRow(alg);
      if (row && this.active.get(alg)?.kid !== row.kid) {
        const key = (await importJWK(JSON.parse(row.private_jwk) as JWK, row.alg)) as CryptoKey;
        this.active.set(alg, { kid: row.kid, alg, key });
      }
    }
  }
}
