import { describe, expect, it } from 'vitest';
import { base32Decode, base32Encode, clockOffsetOf, matchingStep, newTotpSecret, otpauthUri, totpCode, totpStep } from './totp';

// RFC 6238 appendix B's SHA-1 secret, "12345678901234567890", in base32.
const RFC_SECRET = base32Encode(Buffer.from('12345678901234567890'));

describe('TOTP', () => {
  it('makes the codes of RFC 6238 appendix B', () => {
    const vectors: Array<[number, string]> = [
      [59, '94287082'],
      [1111111109, '07081804'],
      [1111111111, '14050471'],
      [1234567890, '89005924'],
      [2000000000, '69279037'],
      [20000000000, '65353130'],
    ];
    for (const [seconds, code] of vectors) expect(totpCode(RFC_SECRET, totpStep(seconds * 1000), 8)).toBe(code);
    expect(totpCode(RFC_SECRET, totpStep(59_000))).toBe('287082');
  });

  it("encodes and decodes RFC 4648 §10's base32 vectors (unpadded, as apps take them), and refuses other letters", () => {
    const vectors = [['', ''], ['f', 'MY'], ['fo', 'MZXQ'], ['foo', 'MZXW6'], ['foob', 'MZXW6YQ'], ['fooba', 'MZXW6YTB'], ['foobar', 'MZXW6YTBOI']];
    for (const [text, encoded] of vectors) {
      expect(base32Encode(Buffer.from(text!)), text).toBe(encoded);
      expect(base32Decode(encoded!).toString(), encoded).toBe(text);
    }
    for (const notBase32 of ['MZXW6YTBO1', 'mzxw6', 'MZXW6=', 'MZ XW']) expect(() => base32Decode(notBase32), notBase32).toThrow('not base32');
  });

  it('round-trips base32 and makes 160-bit secrets', () => {
    expect(RFC_SECRET).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
    expect(base32Decode(RFC_SECRET).toString()).toBe('12345678901234567890');
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(base32Decode(secret)).toHaveLength(20);
    expect(newTotpSecret()).not.toBe(secret);
  });

  it('accepts the codes of one step either side of now, and no others', () => {
    const now = 1_700_000_000_000;
    const step = totpStep(now);
    for (const offset of [-1, 0, 1]) expect(matchingStep(RFC_SECRET, totpCode(RFC_SECRET, step + offset), now)).toBe(step + offset);
    for (const offset of [-3, -2, 2, 3]) expect(matchingStep(RFC_SECRET, totpCode(RFC_SECRET, step + offset), now)).toBeUndefined();
    expect(matchingStep(RFC_SECRET, '', now)).toBeUndefined();
    expect(matchingStep(RFC_SECRET, `${totpCode(RFC_SECRET, step)}1`, now)).toBeUndefined();
  });

  it("finds how far from now a refused code's step lies, up to ten minutes either way", () => {
    const now = 1_700_000_000_000;
    const step = totpStep(now);
    expect(clockOffsetOf(RFC_SECRET, totpCode(RFC_SECRET, step + 4), now)).toBe(120);
    expect(clockOffsetOf(RFC_SECRET, totpCode(RFC_SECRET, step - 20), now)).toBe(-600);
    for (const offset of [-21, -1, 0, 1, 21]) expect(clockOffsetOf(RFC_SECRET, totpCode(RFC_SECRET, step + offset), now), `${offset}`).toBeUndefined();
  });

  it('writes the otpauth address apps read', () => {
    expect(otpauthUri(RFC_SECRET, 'ada@example.com', 'Home Guard')).toBe(
      'otpauth://totp/Home%20Guard%3Aada%40example.com?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=Home%20Guard&algorithm=SHA1&digits=6&period=30',
    );
  });
});
