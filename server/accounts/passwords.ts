import os from 'node:os';
import { hash, verify } from '@node-rs/argon2';
import { workSlots } from '../operations/work-slots';

// OWASP's argon2id baseline; the async calls run on libuv's thread pool, off the event loop.
// algorithm 2 is Argon2id (a const enum that isolated modules cannot import).
const ARGON2 = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

// One hash per core at a time (see workSlots).
const hashing = workSlots(os.availableParallelism());
const inHashingSlot = <T>(work: () => Promise<T>) => hashing.run(work);

/**
 * Passwords are hashed in Unicode NFC (NIST 800-63B §5.1.1.2): "é" typed as one character on one
 * keyboard and as e + accent on another, or pasted from elsewhere, is the same password.
 */
export function hashPassword(password: string): Promise<string> {
  return inHashingSlot(() => hash(password.normalize('NFC'), ARGON2));
}

// Verified against when the email is unknown, so both failures cost the same time.
let dummyHash: Promise<string> | undefined;

/** Checks a password against a stored hash, or spends the same effort when there is none. */
export async function verifyPassword(storedHash: string | undefined, password: string): Promise<boolean> {
  dummyHash ??= hashPassword('home-guard timing equaliser');
  const against = storedHash ?? (await dummyHash);
  // A hash made before passwords were normalised holds the password as typed, so that is tried
  // too when it differs; for known and unknown emails alike, so both cost the same.
  const normalised = password.normalize('NFC');
  for (const candidate of normalised === password ? [password] : [normalised, password]) {
    if (await inHashingSlot(() => verify(against, candidate)).catch(() => false)) return storedHash !== undefined;
  }
  return false;
}

/** How many hashes run at once at most (for tests and the benchmark). */
export const hashingSlots = () => hashing.size;
/** How many hashes are running right now. */
export const hashesRunning = () => hashing.running();
