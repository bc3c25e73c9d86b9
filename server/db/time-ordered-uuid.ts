import { randomUUID } from 'node:crypto';

// The last time issued, and the counter within it (RFC 9562 §6.2, method 1: 12 bits in rand_a).
let lastTime = -1;
let counter = 0;
// A clock stepped back by up to this much (or a counter run past 4,096 in one millisecond) goes on
// from the last time issued; a bigger step starts again at the clock's time.
const CARRY_MS = 1000;

/**
 * A UUIDv7 (RFC 9562 §5.7): 48 bits of Unix time in milliseconds, a 12-bit counter, then 62
 * random bits. Rows keyed by one are inserted at the end of their indexes rather than at a random
 * page of each, and those made by one process sort in the order they were made, within the same
 * millisecond too (the audit log lists events in that order).
 */
export function timeOrderedUuid(now = Date.now()): string {
  if (now <= lastTime && lastTime - now <= CARRY_MS) {
    counter++;
    if (counter > 0xfff) {
      lastTime++;
      counter = 0;
    }
  } else {
    lastTime = now;
    counter = 0;
  }
  // randomUUID(): xxxxxxxx-xxxx-4xxx-Vxxx-xxxxxxxxxxxx, its variant bits already set.
  const random = randomUUID();
  const time = lastTime.toString(16).padStart(12, '0');
  return `${time.slice(0, 8)}-${time.slice(8)}-7${counter.toString(16).padStart(3, '0')}${random.slice(18)}`;
}
