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
import { emptyBodySchema, otherDevicesSignedOutSchema } from '../../contract/accounts';
import { errorBodySchema } from '../../contract/errors';
import { listQuerySchema } from '../../contract/services';
import { requestSource } from '../audit/audit-log';
import type { PasswordChange } from '../mail/password-changed-mail';
import type { Services } from '../services';
import { changedAccountFields } from './users-admin';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };
const idParams = z.object({ id: z.string().max(100) });

/** Users and sessions in the admin area; every route needs an administrator. */
export const adminRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const admin = { onRequest: services.requireAdmin };
  const { usersAdmin, sessionsAdmin, audit } = services;
  const recorded = audit.recordedAnswer.bind(audit);
  // The bodies that change an account refuse fields they do not take (.strict()): a script sending
  // {"disabled": true} to the edit call was answered 200 and the account stayed as it was.

  app.get('/api/v1/admin/users', { ...admin, schema: { querystring: listQuerySchema, response: { 200: adminUserListSchema, ...errors } } }, async (request) => ({
    items: await usersAdmin.list(request.query.search),
  }));
  app.get('/api/v1/admin/users/:id', { ...admin, schema: { params: idParams, response: { 200: adminUserDetailSchema, ...errors } } }, async (request) =>
    usersAdmin.get(request.params.id),
  );
  app.post('/api/v1/admin/users', { ...admin, schema: { body: adminUserCreateSchema.strict(), response: { 200: adminUserDetailSchema, ...errors } } }, async (request) => {
    const user = await usersAdmin.create(request.body);
    return recorded(request, { kind: 'account-created', userId: user.id, detail: user.is_admin ? 'administrator' : null }, user);
  });
  app.put('/api/v1/admin/users/:id', { ...admin, schema: { params: idParams, body: adminUserUpdateSchema.strict(), response: { 200: adminUserDetailSchema, ...errors } } }, async (request) => {
    const before = await usersAdmin.get(request.params.id);
    const { current_password: currentPassword, ...changes } = request.body;
    const own = request.params.id === request.auth!.userId;
    if (own && currentPassword !== undefined) await services.signIn.provePassword(request.auth!, currentPassword, request.ip);
    const after = await usersAdmin.update(request.params.id, changes, request.auth!, own && currentPassword !== undefined);
    const changed = changedAccountFields(before, after);
    return changed ? recorded(request, { kind: 'account-changed', userId: after.id, detail: changed }, after) : after;
  });
  app.put('/api/v1/admin/users/:id/password', { ...admin, schema: { params: idParams, body: adminUserPasswordSchema.strict(), response: { 200: z.object({}), ...errors } } }, async (request) => {
    await usersAdmin.setPassword(request.params.id, request.body.password, request.auth!);
    return recorded(request, { kind: 'password-changed', userId: request.params.id, detail: 'set-by-administrator' satisfies PasswordChange }, {});
  });
  app.put('/api/v1/admin/users/:id/status', { ...admin, schema: { params: idParams, body: adminUserStatusSchema.strict(), response: { 200: adminUserDetailSchema, ...errors } } }, async (request) => {
    const wasDisabled = (await usersAdmin.get(request.params.id)).disabled_at !== null;
    const user = await usersAdmin.setDisabled(request.params.id, request.body.disabled, request.auth!);
    if (wasDisabled === request.body.disabled) return user; // nothing changed
    return recorded(request, { kind: request.body.disabled ? 'account-disabled' : 'account-enabled', userId: user.id }, user);
  });
  app.post('/api/v1/admin/users/:id/sign-out', { ...admin, schema: { params: idParams, body: emptyBodySchema, response: { 200: otherDevicesSignedOutSchema, ...errors } } }, async (request) => {
    const devices = await usersAdmin.signOutEverywhere(request.params.id, request.auth!);
    return recorded(request, { kind: 'user-session-revoked', userId: request.params.id, detail: `everywhere:${devices}` }, { signed_out: devices });
  });
  // For someone who lost their authenticator app: answers the user's details.
  app.delete('/api/v1/admin/users/:id/two-step', { ...admin, schema: { params: idParams, body: emptyBodySchema, response: { 200: adminUserDetailSchema, ...errors } } }, async (request) => {
    const { user, turnedOff } = await usersAdmin.turnOffTwoStep(request.params.id, request.auth!);
    return turnedOff ? recorded(request, { kind: 'two-step-off', userId: user.id }, user) : user;
  });
  app.delete('/api/v1/admin/users/:id', { ...admin, schema: { params: idParams, body: emptyBodySchema, response: { 200: z.object({}), ...errors } } }, async (request) => {
    // The log outlives the account: its line keeps who it was, so it is written in the delete's
    // commit. Written after it, a failure between the two left no trace of the account at all.
    await usersAdmin.delete(request.params.id, request.auth!, (tx, user) =>
      audit.record({ kind: 'account-deleted', userId: user.id, detail: `${user.full_name} <${user.email}>` }, requestSource(request), tx),
    );
    return {};
  });

  app.get('/api/v1/admin/user-sessions', { ...admin, schema: { querystring: pageQuerySchema, response: { 200: pagedSchema(userSessionSchema), ...errors } } }, async (request) =>
    sessionsAdmin.userSessions(request.query),
  );
  app.get('/api/v1/admin/service-sessions', { ...admin, schema: { querystring: pageQuerySchema, response: { 200: pagedSchema(serviceSessionSchema), ...errors } } }, async (request) =>
    sessionsAdmin.serviceSessions(request.query),
  );
  app.patch('/api/v1/admin/user-sessions/revoke/:id', { ...admin, schema: { params: idParams, body: emptyBodySchema, response: { 200: z.object({}), ...errors } } }, async (request) => {
    // Revoking an ended session changes nothing, and is not logged as if it did.
    const { userId, ended } = await sessionsAdmin.revokeUserSession(request.params.id);
    return ended ? recorded(request, { kind: 'user-session-revoked', userId }, {}) : {};
  });
  app.patch('/api/v1/admin/service-sessions/revoke/:id', { ...admin, schema: { params: idParams, body: emptyBodySchema, response: { 200: z.object({}), ...errors } } }, async (request) => {
    const { userId, serviceId, ended } = await sessionsAdmin.revokeServiceSession(request.params.id);
    return ended ? recorded(request, { kind: 'service-session-revoked', userId, serviceId }, {}) : {};
  });
};
