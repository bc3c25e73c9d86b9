import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { auditLogPageSchema, auditLogQuerySchema } from '../../contract/admin';
import { ownActivitySchema } from '../../contract/audit';
import { errorBodySchema } from '../../contract/errors';
import type { Services } from '../services';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema };

/** How many of their latest events people see of their own account. */
export const OWN_ACTIVITY_LIMIT = 10;

/** The audit log: all of it for administrators, a person's own latest events for them. */
export const auditRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  app.get('/api/v1/admin/audit-log', { onRequest: services.requireAdmin, schema: { querystring: auditLogQuerySchema, response: { 200: auditLogPageSchema, ...errors } } }, async (request, reply) => {
    const { user_id: userId, ...page } = request.query;
    return { ...(await services.audit.page({ ...page, userId })), kept_days: services.config.auditLogDays };
  });

  app.get('/api/v1/auth/activity', { onRequest: services.authenticate, schema: { response: { 200: ownActivitySchema, ...errors } } }, async (request, reply) => {
    return { items: await services.audit.latestFor(request.auth!.userId, OWN_ACTIVITY_LIMIT) };
  });
};
