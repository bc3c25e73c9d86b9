import { randomUUID } from 'node:crypto';

/**
 * A UUIDv7 (RFC 9562 §5.7): 48 bits of Unix time in milliseconds, then 74 random bits. Rows keyed
 * by one are inserted at the end of their indexes rather than at a random page of each.
 */
export function timeOrderedUuid(now = Date.now()): string {
  // randomUUID(): xxxxxxxx-xxxx-4xxx-Vxxx-xxxxxxxxxxxx, its variant bits already set.
  const random = randomUUID();
  const time = now.toString(16).padStart(12, '0');
  return `${time.slice(0, 8)}-${time.slice(8)}-7${random.slice(15)}`;
}
