import { createHash, randomBytes } from 'node:crypto';
import { sameBytes } from '../constant-time';

/** A new client secret: 256 random bits. */
export const newClientSecret = () => randomBytes(32).toString('base64url');
export const newClientId = () => randomBytes(16).toString('hex');

// SHA-256 suffices for 256-bit random secrets: there is nothing to brute-force.
export const hashClientSecret = (secret: string) => createHash('sha256').update(secret, 'utf8').digest('base64url');

/** Constant-time comparison of a presented secret with the stored hash. */
export function clientSecretMatches(presented: string, storedHash: string): boolean {
  return sameBytes(hashClientSecret(presented), storedHash);
}
