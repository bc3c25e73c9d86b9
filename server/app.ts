import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { accountsRoutes } from './accounts/routes';
import { adminRoutes } from './admin/routes';
import { auditRoutes } from './audit/routes';
import { apiServicesRoutes } from './api-services/routes';
import { avatarRoutes } from './avatars/routes';
import { launcherRoutes } from './launcher/routes';
import { checkedAnswers } from './http/checked-answers';
import { oauthRoutes } from './oauth/routes';
import { healthRoutes } from './operations/health-routes';
import { installMetrics } from './operations/metrics';
import { ownSessionsRoutes } from './sessions/routes';
import { twoStepRoutes } from './two-step/routes';
import { verificationRoutes } from './verification/routes';
import type { Config } from './config';
import type { Database } from './db/database';
import { AppError } from './errors';
import { installErrorHandling, routerRefusal } from './http/error-handler';
import { answerClientError, answerUnmetExpectation } from './http/client-errors';
import { LOGGED_REQUEST, RequestLog } from './http/request-log';
import { installSecurityHeaders, setApiHeaders } from './http/security-headers';
import { installStaticFiles } from './http/static-files';
import { installJsonBodyParser } from './http/json-body';
import { learnAllowedMethods, MAX_PATH_PART_LENGTH } from './http/allowed-methods';
import { createServices, type ServiceOptions, type Services } from './services';
import { installDefaultMessages } from '../contract/default-messages';

export type AppOptions = ServiceOptions & {
  db: Database;
  /** A pino-compatible logger config (a stream for tests to read); defaults to the configured LOG_LEVEL. */
  logger?: boolean | { level: string; stream?: { write(line: string): void } };
  /** How long a request may take to arrive, headers and body (tests shorten it); REQUEST_TIMEOUT_MS by default. */
  requestTimeoutMs?: number;
};

/**
 * A request whose body has not all arrived in this time is answered 408 and its connection
 * closed, so that a client that stops sending cannot hold a connection for ever (Fastify turns
 * Node's own 5-minute limit off). Two minutes is 5 MB, the largest upload, at 350 kbit/s.
 */
export const REQUEST_TIMEOUT_MS = 120_000;

// JSON bodies above this are refused with 413 (uploads set their own limit).
const BODY_LIMIT = 64 * 1024;

/** Builds the whole HTTP application on an opened, migrated database, without listening. */
export async function buildApp(config: Config, options: AppOptions): Promise<FastifyInstance & { services: Services }> {
  // Zod's words for rules a schema states without a message of its own (once per process is enough; again is harmless).
  installDefaultMessages();
  const requestTimeout = options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  const logger = options.logger ?? { level: config.logLevel };
  const app = Fastify({
    logger: typeof logger === 'boolean' ? logger : { ...logger, serializers: LOGGED_REQUEST },
    bodyLimit: BODY_LIMIT,
    trustProxy: config.trustProxy,
    return503OnClosing: true,
    logController: new RequestLog(),
    routerOptions: { maxParamLength: MAX_PATH_PART_LENGTH },
    requestTimeout,
    // As Node's own server sets them for a request timeout (headers in at most a minute, within it),
    // or it does not enforce the request timeout; checked every 30 s, or more often for a shorter one.
    // A request without Host is let in to be refused below in the API's shape: Node's own 400 is bare.
    http: { requestTimeout, headersTimeout: Math.min(60_000, requestTimeout), connectionsCheckingInterval: Math.min(30_000, Math.ceil(requestTimeout / 4)), requireHostHeader: false },
    clientErrorHandler: answerClientError,
    // The router's own refusals (a broken %-escape, an id too long) skip the error handler: same shape here.
    frameworkErrors: (error, _request, reply: FastifyReply) => {
      setApiHeaders(reply);
      const known = routerRefusal(error);
      void reply.code(known.statusCode).send({ error: known.message });
    },
  }).withTypeProvider<ZodTypeProvider>();
  app.server.on('checkExpectation', answerUnmetExpectation);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(checkedAnswers);
  installErrorHandling(app);
  // First of the onRequest hooks, so that an answer thrown by a later one carries the headers too.
  installSecurityHeaders(app);

  // NUL characters are refused everywhere: PostgreSQL cannot store them in text, and no field
  // has a use for one.
  app.addHook('onRequest', async (request) => {
    if (/%00/.test(request.url)) throw AppError.nulCharacter();
    if (request.headers.host === undefined && request.raw.httpVersion === '1.1') throw AppError.missingHost();
    // Bodies are read as sent; a compressed one would be read as broken JSON (RFC 9110 §15.5.16).
    const encoding = request.headers['content-encoding'];
    const hasBody = request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? 0) > 0;
    if (hasBody && encoding !== undefined && encoding.trim().toLowerCase() !== 'identity') throw AppError.compressedBody();
  });
  // The API takes JSON (and the OAuth endpoints forms): text is refused as any other type is (415),
  // not read as a string that then fails validation.
  app.removeContentTypeParser('text/plain');
  installJsonBodyParser(app);

  const services = await createServices(config, options.db, app.log, options);
  app.decorate('services', services);
  // What is batched in memory is written once requests are done; whoever opened the database
  // closes it after app.close() resolves.
  app.addHook('onClose', async () => services.lastActive.close());
  app.addHook('onClose', async () => services.background.drain());
  const pruning = services.expiredRows.schedule(app.log);
  app.addHook('onClose', async () => pruning.stop());

  const allowedMethods = learnAllowedMethods(app);
  if (config.metrics) installMetrics(app);
  await app.register(accountsRoutes, { services });
  await app.register(twoStepRoutes, { services });
  await app.register(ownSessionsRoutes, { services });
  await app.register(launcherRoutes, { services });
  await app.register(verificationRoutes, { services });
  await app.register(avatarRoutes, { services });
  await app.register(apiServicesRoutes, { services });
  await app.register(oauthRoutes, { services });
  await app.register(adminRoutes, { services });
  await app.register(auditRoutes, { services });
  await app.register(healthRoutes, { services });
  await installStaticFiles(app, config.staticDir, allowedMethods);
  return app as unknown as FastifyInstance & { services: Services };
}
