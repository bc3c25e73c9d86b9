import { describe, expect, it } from 'vitest';
import { AppError } from './errors';

describe('throttled attempts', () => {
  it('say how long to wait, in words and in Retry-After', () => {
    const soon = AppError.tooManyAttempts(12.2);
    expect(soon.message).toBe('Too many failed attempts; try again in a minute');
    expect(soon.headers).toEqual({ 'Retry-After': '13' });
    expect(AppError.tooManyAttempts(601).message).toBe('Too many failed attempts; try again in 11 minutes');
    expect(AppError.tooManyAttempts(90 * 60).message).toBe('Too many failed attempts; try again in 90 minutes');
    expect(AppError.tooManyAttempts(23.5 * 3600).message).toBe('Too many failed attempts; try again in 24 hours');
  });
});
