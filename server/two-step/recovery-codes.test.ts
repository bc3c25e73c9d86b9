import { describe, expect, it } from 'vitest';
import { authenticatorCodeField, RECOVERY_CODE_PATTERN, recoveryCodeField, signInCodeField } from '../../contract/two-step';
import { hashRecoveryCode, newRecoveryCodes, RECOVERY_CODE_COUNT } from './recovery-codes';

describe('recovery codes', () => {
  it('are ten different codes of ten hex digits with a hyphen in the middle', () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(RECOVERY_CODE_COUNT);
    for (const code of codes) expect(code).toMatch(/^[0-9a-f]{5}-[0-9a-f]{5}$/);
    expect(new Set(codes).size).toBe(RECOVERY_CODE_COUNT);
    expect(newRecoveryCodes()).not.toEqual(codes);
  });

  it('hash the same whether typed in capitals or without the hyphen', () => {
    const [code] = newRecoveryCodes() as [string];
    const hash = hashRecoveryCode(code);
    expect(hashRecoveryCode(code.toUpperCase())).toBe(hash);
    expect(hashRecoveryCode(code.replace('-', ''))).toBe(hash);
    expect(hashRecoveryCode(newRecoveryCodes()[0]!)).not.toBe(hash);
    expect(hash).not.toContain(code.replace('-', ''));
  });

  it('are told apart from app codes by the sign-in field, which takes both', () => {
    expect(signInCodeField.parse('123 456')).toBe('123456');
    expect(signInCodeField.parse(' 3F9A2-C07B1 ')).toBe('3F9A2-C07B1');
    expect(signInCodeField.parse('3f9a2c07b1')).toBe('3f9a2c07b1');
    for (const bad of ['12345', '1234567', '3f9a2-c07b', 'zzzzz-zzzzz', '3f9a2--c07b1', ''])
      expect(signInCodeField.safeParse(bad).success, bad).toBe(false);
    expect(recoveryCodeField.safeParse('123456').error?.issues[0]?.message).toBe('A recovery code is 10 letters and digits, like 3f9a2-c07b1');
    expect(RECOVERY_CODE_PATTERN.test('123456')).toBe(false);
  });

  it('are refused where only the app code is asked for, and blanks are called missing', () => {
    expect(authenticatorCodeField.parse(' 123 456 ')).toBe('123456');
    expect(authenticatorCodeField.safeParse('3f9a2-c07b1').error?.issues[0]?.message).toBe('The code is the 6 digits your authenticator app shows');
    expect(authenticatorCodeField.safeParse('  ').error?.issues.map((i) => i.message)).toEqual(['Code is required']);
    expect(recoveryCodeField.safeParse('').error?.issues.map((i) => i.message)).toEqual(['Recovery code is required']);
    expect(signInCodeField.safeParse(undefined).error?.issues[0]?.message).toBe('Code is required');
  });
});
