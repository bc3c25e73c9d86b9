import { timingSafeEqual } from 'node:crypto';

/**
 * Whether two secrets (or hashes of them) are equal, compared in time that depends only on
 * their length. Values of different lengths are unequal; their lengths are not secret.
 */
export function sameBytes(a: Buffer | string, b: Buffer | string): boolean {
  const x = typeof a === 'string' ? Buffer.from(a) : a;
  const y = typeof b === 'string' ? Buffer.from(b) : b;
  return x.length === y.length && timingSafeEqual(x, y);
}
