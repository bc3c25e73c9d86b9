import { randomBytes } from 'node:crypto';
import { hashToken } from '../sessions/tokens';

/** How many a person gets at a time: GitHub's and Google's ten. */
export const RECOVERY_CODE_COUNT = 10;

/**
 * Ten fresh codes, "3f9a2-c07b1": 40 random bits each. With sign-ins throttled to a few a minute
 * per account, guessing one of ten takes longer than anyone keeps a server running.
 */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => randomBytes(5).toString('hex').replace(/^(.{5})/, '$1-'));
}

/** The stored form: typed in capitals or without the hyphen, a code is still the same code. */
export const hashRecoveryCode = (code: string) => hashToken(code.toLowerCase().replace('-', ''));
