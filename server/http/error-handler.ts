import type { FastifyBaseLogger, FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { NOT_AN_OBJECT, REQUIRED } from '../../contract/default-messages';
import { databaseOutage } from '../db/database-outage';
import { AppError } from '../errors';

// How every failed request is answered: as one of the catalogue's errors (errors.ts), or a logged
// 500 with no detail.

/**
 * The refusal for a request the database could not answer (PostgreSQL unreachable, a SQLite file
 * that is full or locked): a 503 the client may retry, logged on one line that names the cause.
 */
export function outageRefusal(error: unknown, log: FastifyBaseLogger): AppError | undefined {
  const outage = databaseOutage(error);
  if (!outage) return undefined;
  log.error({ database: outage }, 'the database could not answer; the request was refused with 503');
  return AppError.unavailable();
}

// Fastify's own 4xx errors (body parsing, routing) mapped into the catalogue.
const fastifyErrors: Record<string, () => AppError> = {
  FST_ERR_BAD_URL: AppError.brokenAddress,
  FST_ERR_MAX_PARAM_LENGTH: AppError.addressTooLong,
  FST_ERR_CTP_INVALID_JSON_BODY: AppError.invalidJson,
  FST_ERR_CTP_EMPTY_JSON_BODY: AppError.invalidJson,
  FST_ERR_CTP_INVALID_MEDIA_TYPE: AppError.unsupportedMediaType,
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: AppError.invalidJson,
  FST_ERR_CTP_BODY_TOO_LARGE: AppError.payloadTooLarge,
};

/** The router's own refusals, which skip the error handler (Fastify's `frameworkErrors`). */
export const routerRefusal = (error: FastifyError): AppError => fastifyErrors[error.code]?.() ?? AppError.notProcessed();

/**
 * A request refused by its schema, by the first thing wrong with it; the OAuth endpoints word it
 * the same. `query` is the parsed query string, where a name sent twice has become a list.
 */
export function validationRefusal(error: FastifyError, query: unknown): AppError {
  const issue = error.validation?.[0];
  if (!issue) return AppError.notProcessed();
  const field = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
  if (error.validationContext === 'querystring' && Array.isArray((query as Record<string, unknown> | undefined)?.[field])) {
    return AppError.validation(field, 'is sent more than once');
  }
  // The whole body is no object (an array, a string, nothing): the default words need their subject.
  if (field === '' && error.validationContext === 'body' && [REQUIRED, NOT_AN_OBJECT].includes(issue.message ?? '')) return AppError.bodyNotObject();
  return AppError.validation(field, issue.message ?? 'is invalid');
}

function toAppError(error: FastifyError, query: unknown): AppError | undefined {
  if (error instanceof AppError) return error;
  if (hasZodFastifySchemaValidationErrors(error)) return validationRefusal(error, query);
  if (error.code && fastifyErrors[error.code]) return fastifyErrors[error.code]!();
  // The body parser's (Fastify gives its errors 400); one of the server's own is a 500.
  if (error instanceof SyntaxError && error.statusCode === 400) return AppError.invalidJson();
  // Any other 4xx Fastify raises keeps its status with a generic sentence.
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    return AppError.notProcessed(error.statusCode);
  }
  return undefined;
}

/** Installs the one error handler and the JSON 404 for unknown API paths. */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    // The static files refuse a path not in canonical form ('//', '\', dot segments, a name too
    // long to look up): it names no file, so it is answered as any unknown address is.
    if (error.code === 'FST_STATIC_FORBIDDEN_PATH') return reply.callNotFound();
    const outage = outageRefusal(error, request.log);
    const known = outage ?? toAppError(error, request.query);
    if (!known) {
      request.log.error({ err: error }, 'unexpected error');
      return reply.code(500).send({ error: 'Internal server error' });
    }
    if (known.statusCode >= 500 && !outage) request.log.error({ err: error }, known.message);
    request.answeredExpectedRefusal = known.expected;
    return reply
      .code(known.statusCode)
      .headers(known.headers)
      .send(known.field ? { error: known.message, field: known.field } : { error: known.message });
  });
}
