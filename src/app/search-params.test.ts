import { describe, expect, it } from 'vitest';
import { parseSearch, stringifySearch } from './search-params';

describe('search parameters', () => {
  it('stay text both ways, first value wins', () => {
    expect(parseSearch('?state=123&ok=true&scope=openid+email&state=2')).toEqual({ state: '123', ok: 'true', scope: 'openid email' });
    expect(stringifySearch({ from: '/a?b=c', none: undefined })).toBe('?from=%2Fa%3Fb%3Dc');
    expect(stringifySearch({})).toBe('');
  });
});
