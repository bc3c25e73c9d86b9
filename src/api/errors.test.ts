import { describe, expect, it } from 'vitest';
import { ApiError, errorMessage, messageFromResponseText } from './errors';

describe('error messages (spec §8)', () => {
  it('takes the error field, else the text, else the fallback, capitalised', () => {
    expect(messageFromResponseText('{"error":"email is already registered"}')).toBe('Email is already registered');
    expect(messageFromResponseText('bad gateway')).toBe('Bad gateway');
    expect(messageFromResponseText('')).toBe('Unexpected error happened');
    expect(messageFromResponseText('{"detail":"x"}')).toBe('{"detail":"x"}');
  });

  it('describes any thrown value', () => {
    expect(errorMessage(new ApiError(409, '{"error":"taken"}'))).toBe('Taken');
    expect(errorMessage(new Error('failed to fetch'))).toBe('Failed to fetch');
    expect(errorMessage('???')).toBe('Unexpected error happened');
  });
});
