/**
 * Claims of access tokens whose signature already checked out, keyed by the token's hash (the
 * bearer token itself is never kept), each valid no longer than the token's own `exp`. It saves
 * the signature check only: the session is still read on every request, so a revoked session
 * is refused at once. Bounded; the oldest entry goes first.
 */
export class VerifiedClaimsCache<Claims> {
  private readonly entries = new Map<string, { claims: Claims; expiresAt: number }>();

  constructor(private readonly maxEntries: number) {}

  get(tokenHash: string, now: number): Claims | undefined {
    const entry = this.entries.get(tokenHash);
    if (!entry) return undefined;
    if (entry.expiresAt <= now) {
      this.entries.delete(tokenHash);
      return undefined;
    }
    return entry.claims;
  }

  set(tokenHash: string, claims: Claims, expiresAt: number): void {
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(tokenHash, { claims, expiresAt });
  }

  get size(): number {
    return this.entries.size;
  }
}
