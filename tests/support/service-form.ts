/** The admin's service form as a test fills it in, with `overrides`: the body of POST and PUT /api/v1/admin/api-services. */
export const serviceForm = (overrides: Record<string, unknown> = {}) => ({
  name: 'Grafana',
  description: 'Dashboards',
  redirect_uris: ['https://grafana.home.lan/login/generic_oauth'],
  scopes: ['openid', 'email'],
  grant_types: [],
  is_active: true,
  ...overrides,
});
