import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  adminUserCreateSchema,
  adminUserDetailSchema,
  adminUserListSchema,
  adminUserPasswordSchema,
  adminUserStatusSchema,
  adminUserUpdateSchema,
  pagedSchema,
  pageQuerySchema,
  serviceSessionSchema,
  userSessionSchema,
} from '../../contract/admin';
import { emptyBodySchema } from '../../contract/accounts';
import { errorBodySchema } from '../../contract/errors';
import { listQuerySchema } from '../../contract/services';
import type { Services } from '../services';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };
const idParams = z.object({ id: z.string().max(100) });

/** Users and sessions in the admin area; every route needs an administrator. */
export const adminRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const admin = { onRequest: services.requireAdmin };
  const { usersAdmin, sessionsAdmin } = services;

  app.get('/api/v1/admin/users', { ...admin, schema: { querystring: listQuerySchema, response: { 200: adminUserListSchema, ...errors } } }, async (request) => ({
    items: await usersAdmin.list(request.query.search),
  }));
  app.get('/api/v1/admin/users/:id', { ...admin, schema: { params: idParams, response: { 200: adminUserDetailSchema, ...errors } } }, async (request) =>
    usersAdmin.get(request.params.id),
  );
  app.post('/api/v1/admin/users', { ...admin, schema: { body: adminUserCreateSchema, response: { 200: adminUserDetailSchema, ...errors } } }, async (request) =>
    usersAdmin.create(request.body),
  );
  app.put('/api/v1/admin/users/:id', { ...admin, schema: { params: idParams, body: adminUserUpdateSchema, response: { 200: adminUserDetailSchema, ...errors } } }, async (request) =>
    usersAdmin.update(request.params.id, request.body),
  );
  app.put('/api/v1/admin/users/:id/password', { ...admin, schema: { params: idParams, body: adminUserPasswordSchema, response: { 200: z.object({}), ...errors } } }, async (request) => {
    await usersAdmin.setPassword(request.params.id, request.body.password, request.auth!);
    return {};
  });
  app.put('/api/v1/admin/users/:id/status', { ...admin, schema: { params: idParams, body: adminUserStatusSchema, response: { 200: adminUserDetailSchema, ...errors } } }, async (request) =>
    usersAdmin.setDisabled(request.params.id, request.body.disabled, request.auth!),
  );
  // For someone who lost their authenticator app: answers the user's details.
  app.delete('/api/v1/admin/users/:id/two-step', { ...admin, schema: { params: idParams, body: emptyBodySchema, response: { 200: adminUserDetailSchema, ...errors } } }, async (request) =>
    usersAdmin.turnOffTwoStep(request.params.id),
  );
  app.delete('/api/v1/admin/users/:id', { ...admin, schema: { params: idParams, response: { 200: z.object({}), ...errors } } }, async (request) => {
    await usersAdmin.delete(request.params.id);
    return {};
  });

  app.get('/api/v1/admin/user-sessions', { ...admin, schema: { querystring: pageQuerySchema, response: { 200: pagedSchema(userSessionSchema), ...errors } } }, async (request) =>
    sessionsAdmin.userSessions(request.query),
  );
  app.get('/api/v1/admin/service-sessions', { ...admin, schema: { querystring: pageQuerySchema, response: { 200: pagedSchema(serviceSessionSchema), ...errors } } }, async (request) =>
    sessionsAdmin.serviceSessions(request.query),
  );
  app.patch('/api/v1/admin/user-sessions/revoke/:id', { ...admin, schema: { params: idParams, body: emptyBodySchema, response: { 200: z.object({}), ...errors } } }, async (request) => {
    await sessionsAdmin.revokeUserSession(request.params.id);
    return {};
  });
  app.patch('/api/v1/admin/service-sessions/revoke/:id', { ...admin, schema: { params: idParams, body: emptyBodySchema, response: { 200: z.object({}), ...errors } } }, async (request) => {
    await sessionsAdmin.revokeServiceSession(request.params.id);
    return {};
  });
};
