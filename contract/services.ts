import { z } from 'zod';
import { groupsField, requiredMultilineText, requiredText, searchField } from './fields';

/** Scopes a service may ask for, and what the consent screen says of each (spec §2). */
export const SCOPE_DESCRIPTIONS = {
  openid: 'Access your account id and use it',
  email: 'View your email address',
  profile: 'View your profile image',
  offline_access: 'Stay signed in to it while you are away',
  groups: 'View the groups you are in',
} as const;
export type Scope = keyof typeof SCOPE_DESCRIPTIONS;
export const KNOWN_SCOPES = Object.keys(SCOPE_DESCRIPTIONS) as Scope[];
export const GRANT_TYPES = ['authorization_code', 'refresh_token'] as const;
export const ID_TOKEN_ALGS = ['RS256', 'ES256'] as const;

const PRIVATE_USE_SCHEME = /^[a-z][a-z0-9+-]*(\.[a-z0-9+-]+)+:/i;

/**
 * Where a service may be sent back to, compared byte for byte later: an absolute http(s) URL, or a
 * native app's private-use scheme, which RFC 8252 §7.1 has be a reverse domain name (Immich's
 * mobile app uses app.immich:///oauth-callback). Never a fragment (RFC 6749 §3.1.2); the dot keeps
 * out javascript:, data: and the other schemes a browser would run or read instead of leave to.
 */
export const redirectUriField = z
  .string({ error: 'URI must be text' })
  .max(2000, 'URI is too long')
  .refine((value) => {
    try {
      const url = new URL(value);
      const allowed = url.protocol === 'https:' || url.protocol === 'http:' || PRIVATE_USE_SCHEME.test(value);
      // No # even for an empty fragment, which the parser reads as none; no white space: the parser
      // would drop or encode it, and the stored URI would never match.
      return allowed && !/[#\s]/.test(value);
    } catch {
      return false;
    }
  }, "Each URI must be an absolute http(s) URL, or an app's own scheme such as app.immich:/, without a fragment")
  // https://grafana.example@evil.example/ reads as Grafana and sends the codes to evil.example.
  .refine((value) => !URL.canParse(value) || (new URL(value).username === '' && new URL(value).password === ''), 'A URI may not hold a user name or password')
  // Other providers take https://*.example.lan/* as a pattern; here it would match only itself.
  .refine((value) => !value.includes('*'), 'URIs are matched exactly: a * is no wildcard, so list each address');

/** A URI listed twice is kept once: it matches the same either way. */
const uriList = (required: boolean) =>
  z
    .array(redirectUriField, { error: (issue) => (required && issue.input === undefined ? 'At least one URI is required' : 'URIs must be a list') })
    .min(required ? 1 : 0, 'At least one URI is required')
    .max(20, 'At most 20 URIs')
    .transform((uris) => [...new Set(uris.map(lowerCaseSchemeAndHost))]);

/**
 * Scheme and host in lower case, as services send them (RFC 3986 §6.2.2.1: neither is case
 * sensitive), the rest as typed: "Https://Grafana.home.lan/login", from a phone's keyboard, was
 * stored as typed and never matched, byte for byte, what Grafana sent.
 */
const lowerCaseSchemeAndHost = (uri: string) => uri.replace(/^([^:/?#]+:\/\/[^/?#]*)/, (start) => start.toLowerCase());
const grantTypeList = z.array(z.enum(GRANT_TYPES, { error: `Grant types must be among ${GRANT_TYPES.join(', ')}` }), { error: 'Grant types must be a list' });
type GrantType = (typeof GRANT_TYPES)[number];
const grantsOrDefault = (grants: GrantType[] | undefined): GrantType[] => (grants && grants.length > 0 ? grants : ['authorization_code']);

/** The admin's service form (spec §5 messages); grant types left out or empty are authorization_code. */
export const apiServiceInputSchema = z.object({
  name: requiredText('Name', 120),
  description: requiredMultilineText('Description', 1000),
  redirect_uris: uriList(true),
  post_logout_redirect_uris: uriList(false).optional(),
  scopes: z
    .array(z.enum(KNOWN_SCOPES as [Scope, ...Scope[]], { error: `Scopes must be among ${KNOWN_SCOPES.join(', ')}` }), { error: 'Scopes are required' })
    .min(1, 'Scopes are required'),
  grant_types: grantTypeList.optional().transform(grantsOrDefault),
  is_active: z.boolean().optional(),
  icon_url: z.url({ protocol: /^https?$/, error: 'Icon URL must be an absolute http(s) URL' }).max(2000, 'Icon URL must be at most 2000 characters').nullable().optional(),
  /** Where people open it; Home lists it for everyone it lets in. */
  launch_url: z.url({ protocol: /^https?$/, error: 'Home page must be an absolute http(s) URL' }).max(2000, 'Home page must be at most 2000 characters').nullable().optional(),
  id_token_signed_response_alg: z.enum(ID_TOKEN_ALGS, { error: 'The ID token algorithm must be RS256 or ES256' }).optional(),
  /** Only people in one of these groups may sign in to it; empty (or left out when creating): everyone. */
  allowed_groups: groupsField.optional(),
  /** Only sign-ins made with two steps (an authenticator app's code or a recovery code); left out when editing: unchanged. */
  require_two_step: z.boolean().optional(),
  /** A public client (mobile, desktop or single-page app): no secret, PKCE required; left out when editing: unchanged. */
  public_client: z.boolean().optional(),
});
export type ApiServiceInput = z.input<typeof apiServiceInputSchema>;

/**
 * PUT /api/v1/admin/api-services/{id}: as creating, but grant types left out stay as they are (an
 * empty list is still authorization_code), as does `is_active` (the web app turns a service on and
 * off with the toggle call alone, so an edit never undoes a Disable made meanwhile).
 */
export const apiServiceUpdateSchema = apiServiceInputSchema.extend({
  grant_types: grantTypeList.optional().transform((grants) => (grants === undefined ? undefined : grantsOrDefault(grants))),
  /**
   * The service's edit_version the form was filled from: the edit is refused (409) if another
   * administrator changed the service since, rather than undoing their change (a group rule, or
   * two-step sign-in required).
   */
  edit_version: z.string().max(64).optional(),
});

export const apiServiceSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  client_id: z.string(),
  redirect_uris: z.array(z.string()),
  post_logout_redirect_uris: z.array(z.string()),
  scopes: z.array(z.string()),
  grant_types: z.array(z.string()),
  is_active: z.boolean(),
  icon_url: z.string().nullable(),
  launch_url: z.string().nullable(),
  id_token_signed_response_alg: z.string(),
  allowed_groups: z.array(z.string()),
  require_two_step: z.boolean(),
  public_client: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
  /** The edit form's fields as they are now, as a fingerprint: sent back with the edit (see apiServiceUpdateSchema). */
  edit_version: z.string(),
});
export type ApiService = z.infer<typeof apiServiceSchema>;

export const apiServiceListSchema = z.object({ items: z.array(apiServiceSchema) });

/**
 * PATCH /api/v1/admin/api-services/toggle/{id}: no body turns the service to its other state (the
 * spec's call); `is_active` names the state wanted, so two admins who both click Disable leave it
 * disabled, not on again.
 */
export const apiServiceToggleSchema = z
  .strictObject(
    { is_active: z.boolean().optional() },
    { error: (issue) => (issue.code === 'unrecognized_keys' ? `Only is_active may be sent, not ${issue.keys.join(', ')}` : 'The body must be empty, or {"is_active": true or false}') },
  )
  .nullish();

/** A public client's are its client ID alone: it has no secret. */
export const credentialsSchema = z.object({ client_id: z.string(), client_secret: z.string().nullable() });
export const createdApiServiceSchema = z.object({ id: z.string(), credentials: credentialsSchema });

/**
 * Optional on POST /api/v1/admin/api-services: a creation sent again with the same key, after an
 * answer that was lost, gets the service the first one made (with a new secret: nobody saw the
 * first) instead of making a second one.
 */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const idempotencyKeySchema = z.string().regex(/^[\w-]{16,100}$/, 'must be 16 to 100 letters, digits, - or _');

/** GET /api/v1/api-services/client/{clientId}: what anyone may know of a service. */
export const publicServiceSchema = z.object({ name: z.string(), icon_url: z.string().nullable(), scopes: z.array(z.string()) });

export const listQuerySchema = z.object({ search: searchField.optional() });

/** GET /api/v1/auth/launcher: the services a person may sign in to that have a home page, by name. */
export const launcherSchema = z.object({ items: z.array(apiServiceSchema.pick({ id: true, name: true, icon_url: true }).extend({ launch_url: z.string() })) });
export type LauncherItem = z.infer<typeof launcherSchema>['items'][number];
