import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { emptyBodySchema, otherDevicesSignedOutSchema, ownSessionListSchema, signedInServiceListSchema } from '../../contract/accounts';
import { SERVICE_APPROVAL_ONLY } from '../../contract/audit';
import { errorBodySchema } from '../../contract/errors';
import { requestSource } from '../audit/audit-log';
import type { Services } from '../services';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };

/**
 * The signed-in person's own sessions: the devices signed in to Home Guard, and the services
 * signed in through it; each can be signed out.
 */
export const ownSessionsRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  app.get('/api/v1/auth/sessions', { onRequest: services.authenticate, schema: { response: { 200: ownSessionListSchema, ...errors } } }, async (request, reply) => {
    return { items: await services.sessions.ownSessions(request.auth!) };
  });

  app.delete('/api/v1/auth/sessions', { onRequest: services.authenticate, schema: { body: emptyBodySchema, response: { 200: otherDevicesSignedOutSchema, ...errors } } }, async (request) => {
    const signedOut = await services.sessions.endOtherOwnSessions(request.auth!);
    if (signedOut > 0) await services.audit.record({ kind: 'user-session-revoked', userId: request.auth!.userId, detail: `other-devices:${signedOut}` }, requestSource(request));
    return { signed_out: signedOut };
  });

  app.delete('/api/v1/auth/sessions/:id', { onRequest: services.authenticate, schema: { params: z.object({ id: z.string().max(100) }), body: emptyBodySchema, response: { 200: z.object({}), ...errors } } }, async (request) => {
    await services.sessions.endOwnSession(request.auth!, request.params.id);
    return services.audit.recordedAnswer(request, { kind: 'user-session-revoked', userId: request.auth!.userId }, {});
  });

  app.get('/api/v1/auth/services', { onRequest: services.authenticate, schema: { response: { 200: signedInServiceListSchema, ...errors } } }, async (request, reply) => {
    return { items: await services.oauth.signedInServices.list(request.auth!.userId) };
  });

  app.delete('/api/v1/auth/services/:id', { onRequest: services.authenticate, schema: { params: z.object({ id: z.string().max(100) }), body: emptyBodySchema, response: { 200: z.object({}), ...errors } } }, async (request) => {
    const ended = await services.oauth.signedInServices.signOut(request.auth!.userId, request.params.id);
    const detail = ended === 0 ? SERVICE_APPROVAL_ONLY : undefined;
    return services.audit.recordedAnswer(request, { kind: 'service-session-revoked', userId: request.auth!.userId, serviceId: request.params.id, detail }, {});
  });
};
