import { describe, expect, it } from 'vitest';
import { timeOrderedUuid } from './time-ordered-uuid';

describe('timeOrderedUuid', () => {
  it('is a version 7 UUID carrying the time, sorting in the order of issue', () => {
    const at = Date.UTC(2026, 10, 24, 4, 30);
    const id = timeOrderedUuid(at);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(Number.parseInt(id.replaceAll('-', '').slice(0, 12), 16)).toBe(at);
    const ids = [at, at + 1, at + 1000, at + 86_400_000].map((time) => timeOrderedUuid(time));
    expect([...ids].sort()).toEqual(ids);
  });

  it('differs within one millisecond', () => {
    const ids = Array.from({ length: 1000 }, () => timeOrderedUuid(1));
    expect(new Set(ids).size).toBe(ids.length);
  });
});
