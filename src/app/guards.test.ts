import { describe, expect, it } from 'vitest';
import { fromSearchSchema, safeReturnPath } from './guards';

describe('return paths', () => {
  it('keeps same-origin paths and drops everything that could leave the site', () => {
    expect(safeReturnPath('/personal-info?tab=1')).toBe('/personal-info?tab=1');
    for (const bad of ['//evil.example/x', 'https://evil.example', '/\\evil.example', 'javascript:alert(1)', '', 42, undefined]) {
      expect(safeReturnPath(bad), String(bad)).toBeUndefined();
    }
    expect(fromSearchSchema.parse({ from: '//evil.example' })).toEqual({ from: undefined });
    expect(fromSearchSchema.parse({ from: ['x'] })).toEqual({ from: undefined });
  });
});
