import { describe, expect, it } from 'vitest';
import { apiServiceInputSchema } from './services';

describe('a service', () => {
  const service = { name: 'Grafana', description: 'Dashboards', redirect_uris: ['https://grafana.home.lan/login/generic_oauth'], scopes: ['openid'] };
  const errors = (fields: Record<string, unknown>) => apiServiceInputSchema.safeParse({ ...service, ...fields }).error?.issues.map((issue) => issue.message);

  it('says an address too long is too long, not that it is no http(s) address', () => {
    const long = `https://icons.home.lan/${'a'.repeat(2000)}.png`;
    expect(errors({ icon_url: long, launch_url: long })).toEqual(['Icon URL must be at most 2000 characters', 'Home page must be at most 2000 characters']);
    expect(errors({ icon_url: 'ftp://icons.home.lan/a.png' })).toEqual(['Icon URL must be an absolute http(s) URL']);
    expect(errors({ icon_url: 'https://icons.home.lan/a.png', launch_url: 'https://grafana.home.lan/' })).toBeUndefined();
  });
});
