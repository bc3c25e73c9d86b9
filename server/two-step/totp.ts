import { createHmac, randomBytes } from 'node:crypto';
import { APP_CODE_PATTERN } from '../../contract/two-step';
import { sameBytes } from '../constant-time';

/**
 * Time-based one-time passwords (RFC 6238) as every authenticator app makes them: HMAC-SHA1,
 * 30-second steps, 6 digits. Only the parts Home Guard needs.
 */
export const TOTP_STEP_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** Steps either side of now that are still accepted: a phone's clock may be a little off. */
const DRIFT_STEPS = 1;

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function base32Encode(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

export function base32Decode(text: string): Buffer {
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of text) {
    const index = BASE32.indexOf(char);
    if (index < 0) throw new Error('not base32');
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** A new shared secret: 160 bits (RFC 4226's recommendation), as the 32 base32 letters apps take. */
export function newTotpSecret(): string {
  return base32Encode(randomBytes(20));
}

/** The code for one time step (RFC 4226's HOTP with the step as counter). */
export function totpCode(secret: string, step: number, digits = TOTP_DIGITS): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const mac = createHmac('sha1', base32Decode(secret)).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0xf;
  const number = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(number % 10 ** digits).padStart(digits, '0');
}

export const totpStep = (nowMs: number) => Math.floor(nowMs / 1000 / TOTP_STEP_SECONDS);

/**
 * The step whose code `code` is, within the drift allowed around now; undefined when none.
 * Every candidate is compared, in constant time, so the answer's timing says nothing.
 */
export function matchingStep(secret: string, code: string, nowMs: number): number | undefined {
  if (!APP_CODE_PATTERN.test(code)) return undefined;
  const now = totpStep(nowMs);
  let found: number | undefined;
  for (let step = now - DRIFT_STEPS; step <= now + DRIFT_STEPS; step++) {
    if (sameBytes(totpCode(secret, step), code) && found === undefined) found = step;
  }
  return found;
}

/** How far either side of now a refused code is looked for (ten minutes), only to say so. */
const CLOCK_OFF_STEPS = 20;

/**
 * How many seconds from now lies the step a refused code was made for, when that is within ten
 * minutes: a server clock that is off refuses every code, and the operator should hear why. The
 * code stays refused.
 */
export function clockOffsetOf(secret: string, code: string, nowMs: number): number | undefined {
  if (!APP_CODE_PATTERN.test(code)) return undefined;
  const now = totpStep(nowMs);
  for (let distance = DRIFT_STEPS + 1; distance <= CLOCK_OFF_STEPS; distance++) {
    for (const step of [now - distance, now + distance]) if (totpCode(secret, step) === code) return (step - now) * TOTP_STEP_SECONDS;
  }
  return undefined;
}

/** The otpauth:// address authenticator apps read from the QR code (Google's Key Uri Format). */
export function otpauthUri(secret: string, account: string, issuer: string): string {
  const label = encodeURIComponent(`${issuer}:${account}`);
  const params = new URLSearchParams({ secret, issuer, algorithm: 'SHA1', digits: String(TOTP_DIGITS), period: String(TOTP_STEP_SECONDS) });
  return `otpauth://totp/${label}?${params.toString().replaceAll('+', '%20')}`;
}
