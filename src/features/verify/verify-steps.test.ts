import { describe, expect, it } from 'vitest';
import { maskEmail, progressOf, stepOf } from './verify-steps';

describe('verification steps', () => {
  it('derives the step from the profile flags', () => {
    expect(stepOf({ email_verified: false, avatar_verified: true, verified: false })).toBe('email');
    expect(stepOf({ email_verified: true, avatar_verified: false, verified: false })).toBe('avatar');
    expect(stepOf({ email_verified: true, avatar_verified: true, verified: false })).toBe('review');
    expect(stepOf({ email_verified: true, avatar_verified: true, verified: true })).toBe('done');
  });

  it('computes progress as index over steps minus one', () => {
    expect([progressOf('email'), progressOf('avatar'), progressOf('review')]).toEqual([0, 50, 100]);
  });

  it('masks the email but its first and last characters', () => {
    expect(maskEmail('ada@example.com')).toBe('a*************m');
    expect(maskEmail('ab')).toBe('**');
  });
});
