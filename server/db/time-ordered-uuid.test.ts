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

  it('differs within one millisecond, sorting in the order of issue there too', () => {
    const ids = Array.from({ length: 5000 }, () => timeOrderedUuid(1_000_000));
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
    // Past 4,096 in a millisecond (all 12 bits), the next one's time goes on.
    expect(ids[4095]!.slice(0, 18)).toBe('0000000f-4240-7fff'); // 1,000,000 is 0xf4240
    expect(Number.parseInt(ids.at(-1)!.replaceAll('-', '').slice(0, 12), 16)).toBe(1_000_001);
    expect(timeOrderedUuid(1_000_000) > ids.at(-1)!).toBe(true);
  });

  it('goes on in order over a small step back of the clock, and starts again at a big one', () => {
    const before = timeOrderedUuid(5_000_000);
    expect(timeOrderedUuid(4_999_500) > before).toBe(true);
    expect(timeOrderedUuid(5_000_000 - 1000) > before, 'a step of exactly a second').toBe(true);
    expect(Number.parseInt(timeOrderedUuid(4_000_000).replaceAll('-', '').slice(0, 12), 16)).toBe(4_000_000);
  });
});
