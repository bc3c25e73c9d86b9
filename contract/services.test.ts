import { describe, expect, it } from 'vitest';
import { apiServiceInputSchema, apiServiceToggleSchema } from './services';

describe('a service', () => {
  const service = { name: 'Grafana', description: 'Dashboards', redirect_uris: ['https://grafana.home.lan/login/generic_oauth'], scopes: ['openid'] };
  const errors = (fields: Record<string, unknown>) => apiServiceInputSchema.safeParse({ ...service, ...fields }).error?.issues.map((issue) => issue.message);

  it('says an address too long is too long, not that it is no http(s) address', () => {
    const long = `https://icons.home.lan/${'a'.repeat(2000)}.png`;
    expect(errors({ icon_url: long, launch_url: long })).toEqual(['Icon URL must be at most 2000 characters', 'Home page must be at most 2000 characters']);
    expect(errors({ icon_url: 'ftp://icons.home.lan/a.png' })).toEqual(['Icon URL must be an absolute http(s) URL']);
    expect(errors({ icon_url: 'https://icons.home.lan/a.png', launch_url: 'https://grafana.home.lan/' })).toBeUndefined();
  });

  it('takes no * for a wildcard: redirect URIs are matched exactly', () => {
    for (const uri of ['https://*.home.lan/login/generic_oauth', 'https://grafana.home.lan/*']) {
      expect(errors({ redirect_uris: [uri] }), uri).toEqual(['URIs are matched exactly: a * is no wildcard, so list each address']);
      expect(errors({ post_logout_redirect_uris: [uri] }), uri).toEqual(['URIs are matched exactly: a * is no wildcard, so list each address']);
    }
  });

  it('keeps a URI with its scheme and host in lower case, the rest as typed: services send them so', () => {
    const typed = apiServiceInputSchema.parse({ ...service, redirect_uris: ['Https://Grafana.Home.lan:3000/Login?Next=A', 'App.Immich:///oauth-callback', 'https://grafana.home.lan:3000/Login?Next=A'] });
    expect(typed.redirect_uris).toEqual(['https://grafana.home.lan:3000/Login?Next=A', 'app.immich:///oauth-callback']);
    expect(apiServiceInputSchema.parse({ ...service, redirect_uris: ['https://pve.lan:8006'] }).redirect_uris, 'no slash added').toEqual(['https://pve.lan:8006']);
  });

  it('takes no URI with a fragment, even an empty one, nor with a user name or a password alone', () => {
    const noFragment = "Each URI must be an absolute http(s) URL, or an app's own scheme such as app.immich:/, without a fragment";
    expect(errors({ redirect_uris: ['https://grafana.home.lan/cb#'] })).toEqual([noFragment]);
    expect(errors({ redirect_uris: ['https://:secret@grafana.home.lan/cb'] })).toEqual(['A URI may not hold a user name or password']);
    expect(errors({ redirect_uris: ['https://ada@grafana.home.lan/cb'] })).toEqual(['A URI may not hold a user name or password']);
  });

  it("lowers the case of the scheme and host it starts with, not of an address in an app scheme's query", () => {
    expect(apiServiceInputSchema.parse({ ...service, redirect_uris: ['app.immich:/cb?from=Https://Immich.Home.lan/X'] }).redirect_uris).toEqual(['app.immich:/cb?from=Https://Immich.Home.lan/X']);
  });

  it('keeps a URI listed twice once, and still needs one', () => {
    const twice = apiServiceInputSchema.parse({ ...service, redirect_uris: ['https://a.home.lan/cb', 'https://b.home.lan/cb', 'https://a.home.lan/cb'] });
    expect(twice.redirect_uris).toEqual(['https://a.home.lan/cb', 'https://b.home.lan/cb']);
    expect(errors({ redirect_uris: [] })).toEqual(['At least one URI is required']);
    expect(errors({ redirect_uris: undefined })).toEqual(['At least one URI is required']);
    expect(errors({ redirect_uris: 'x' })).toEqual(['URIs must be a list']);
    expect(errors({ post_logout_redirect_uris: 'x' })).toEqual(['URIs must be a list']);
    expect(apiServiceInputSchema.parse({ ...service, post_logout_redirect_uris: [] }).post_logout_redirect_uris).toEqual([]);
  });
});

describe('turning a service on or off', () => {
  it('names every field sent that it does not take', () => {
    expect(apiServiceToggleSchema.safeParse({ is_active: true, enabled: true, state: 'on' }).error?.issues.map((issue) => issue.message)).toEqual(['Only is_active may be sent, not enabled, state']);
  });
});
