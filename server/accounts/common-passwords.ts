import { AppError } from '../errors';
import { COMMON_PASSWORDS } from './common-passwords-list';

const COMMON = new Set(COMMON_PASSWORDS.split(/\s+/).filter(Boolean));

/** One of the passwords people pick most, in any letter case (ASVS 2.1.7, NIST SP 800-63B 5.1.1.2). */
export const isCommonPassword = (password: string): boolean => COMMON.has(password.normalize('NFC').toLowerCase());

/** Refuses a new password that guessers try first; called before anything is written. */
export function refuseCommonPassword(password: string): void {
  if (isCommonPassword(password)) throw AppError.commonPassword();
}
