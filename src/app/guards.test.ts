import { describe, expect, it } from 'vitest';
import { fromSearchSchema, safeReturnPath } from './guards';

describe('return paths', () => {
  it('keeps same-origin paths and drops everything that could leave the site', () => {
    expect(safeReturnPath('/personal-info?tab=1')).toBe('/personal-info?tab=1');
    expect(safeReturnPath('/admin/users/../services#top')).toBe('/admin/services#top');
    expect(safeReturnPath('/café?q=a b')).toBe('/caf%C3%A9?q=a%20b');
    const hidden = ['/\t/evil.example/', '/\t/[', '/\n/evil.example', '/\r\n/evil.example'];
    for (const bad of ['//evil.example/x', 'https://evil.example', '/\\evil.example', 'javascript:alert(1)', ...hidden, '', 42, undefined]) {
      expect(safeReturnPath(bad), String(bad)).toBeUndefined();
    }
    expect(fromSearchSchema.parse({ from: '//evil.example' })).toEqual({ from: undefined });
    expect(fromSearchSchema.parse({ from: ['x'] })).toEqual({ from: undefined });
  });
});
