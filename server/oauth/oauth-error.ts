import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { asErrorDescription, redirectWith } from '../../contract/oauth';
import { AppError } from '../errors';
import { outageRefusal, validationRefusal } from '../http/error-handler';

export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'unsupported_response_type'
  | 'invalid_scope'
  | 'access_denied'
  | 'login_required'
  | 'consent_required'
  | 'interaction_required'
  | 'request_not_supported'
  | 'request_uri_not_supported'
  | 'invalid_token'
  | 'server_error'
  | 'temporarily_unavailable';

/**
 * An RFC 6749 error. `redirect` is set for authorization errors that go back to the service
 * (its redirect_uri was verified); without it the browser shows our error page instead.
 */
export class OAuthError extends Error {
  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
    readonly statusCode = 400,
    readonly redirect?: { redirectUri: string; state: string | undefined; issuer: string },
    readonly headers: Record<string, string> = {},
  ) {
    super(description);
    this.name = 'OAuthError';
  }

  /** The same error, now known to be sent back to a verified redirect URI. */
  redirectingTo(redirectUri: string, state: string | undefined, issuer: string): OAuthError {
    return new OAuthError(this.error, this.description, this.statusCode, { redirectUri, state, issuer }, this.headers);
  }

  /** The answer's body; `forService` keeps error_description to RFC 6749's characters (see asErrorDescription). */
  body(forService: boolean) {
    return {
      error: this.error,
      error_description: forService ? asErrorDescription(this.description) : this.description,
      ...(this.redirect
        ? { redirect_to: redirectWith(this.redirect.redirectUri, { error: this.error, error_description: this.description, state: this.redirect.state, iss: this.redirect.issuer }) }
        : {}),
    };
  }
}

/** A parameter sent more than once, in a query or a form (RFC 6749 §3.1): it is refused, never guessed at. */
export const repeatedParameters = (names: readonly string[]) => new OAuthError('invalid_request', `The ${names.join(', ')} parameter${names.length > 1 ? 's are' : ' is'} repeated`);

/**
 * The refusal of a form (read by form-body.ts) whose schema failed on parameters sent more than
 * once, naming them; undefined if none was. A list in a JSON body is just the wrong type.
 */
function repeatedInForm(error: FastifyError, request: FastifyRequest): OAuthError | undefined {
  if (error.validationContext !== 'body' || !/^application\/x-www-form-urlencoded\b/i.test(request.headers['content-type'] ?? '')) return undefined;
  const form = request.body as Record<string, unknown>;
  const names = (error.validation ?? []).map((issue) => issue.instancePath.replace(/^\//, '')).filter((name) => Array.isArray(form[name]));
  return names.length > 0 ? repeatedParameters([...new Set(names)]) : undefined;
}

/** The RFC code for a first-party refusal (the bearer token of /oauth/code): RFC 6750 §3.1 for a 401. */
const APP_ERROR_CODES: Partial<Record<number, OAuthErrorCode>> = { 401: 'invalid_token', 403: 'access_denied' };

/**
 * The endpoints only the app calls: it shows their error_description as written ("Café asks for
 * two-step sign-in…"). Every other answer is read by a service.
 */
const READ_BY_THE_APP = ['/api/v1/oauth/authorize', '/api/v1/oauth/code', '/api/v1/oauth/end-session'];

/** OAuth endpoints answer RFC errors (never a stack), with no-store on every answer. */
export function installOAuthErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    let known: OAuthError;
    const outage = outageRefusal(error, request.log);
    if (error instanceof OAuthError) known = error;
    else if (outage) known = new OAuthError('temporarily_unavailable', outage.message, outage.statusCode, undefined, outage.headers);
    else if (hasZodFastifySchemaValidationErrors(error)) {
      known = repeatedInForm(error, request) ?? new OAuthError('invalid_request', validationRefusal(error, request.query).message);
    } else if (error instanceof AppError && error.statusCode < 500) {
      // Status and challenge stand: the web app refreshes its token, and tries again, on a 401 only.
      known = new OAuthError(APP_ERROR_CODES[error.statusCode] ?? 'invalid_request', error.message, error.statusCode, undefined, error.headers);
    } else if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      known = new OAuthError('invalid_request', error.statusCode === 413 ? 'The request is too large' : 'The request could not be read', error.statusCode === 413 ? 413 : 400);
    } else {
      request.log.error({ err: error }, 'unexpected error at an OAuth endpoint');
      known = new OAuthError('server_error', 'The server could not complete the request', 500);
    }
    return reply.code(known.statusCode).headers({ 'Cache-Control': 'no-store', Pragma: 'no-cache', ...known.headers }).send(known.body(!READ_BY_THE_APP.includes(request.routeOptions.url ?? '')));
  });
}
