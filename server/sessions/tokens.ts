import { createHash, randomBytes } from 'node:crypto';

/** A new opaque token: 256 random bits, base64url. */
export const newOpaqueToken = () => randomBytes(32).toString('base64url');

/**
 * Tokens are stored only as this hash. A plain SHA-256 suffices: the tokens carry 256 bits of
 * entropy, so there is nothing to brute-force, and lookups stay a single indexed equality.
 */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url');
