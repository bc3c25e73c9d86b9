import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  changePasswordRequestSchema,
  passwordResetConfirmSchema,
  passwordResetRequestSchema,
  emptyBodySchema,
  loginRequestSchema,
  loginResponseSchema,
  profileSchema,
  refreshResponseSchema,
  registerRequestSchema,
  registerResponseSchema,
  registrationStatusSchema,
} from '../../contract/accounts';
import { errorBodySchema } from '../../contract/errors';
import { requestSource } from '../audit/audit-log';
import { requireBearer } from '../http/authenticate';
import { publicUrlMismatchWarning } from '../http/public-url-warning';
import { untrustedProxyWarning } from '../http/untrusted-proxy';
import type { PasswordChange } from '../mail/password-changed-mail';
import type { Services } from '../services';
import { toProfile } from './users-repository';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 409: errorBodySchema, 413: errorBodySchema, 415: errorBodySchema, 429: errorBodySchema };

export const accountsRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  app.post('/api/v1/register', { schema: { body: registerRequestSchema.strict(), response: { 200: registerResponseSchema, ...errors } } }, async (request) => {
    const { id } = await services.accounts.signUp(request.body, request.ip);
    await services.audit.record({ kind: 'account-created', userId: id, detail: 'registered' }, { ...requestSource(request), actorId: id });
    return { id };
  });

  app.get('/api/v1/register', { schema: { response: { 200: registrationStatusSchema } } }, async (_request, reply) => {
    return { open: await services.accounts.registrationOpen() };
  });

  app.post('/api/v1/auth/login', { onRequest: [untrustedProxyWarning(services.config.trustProxy), publicUrlMismatchWarning(services.config.publicUrl)], schema: { body: loginRequestSchema, response: { 200: loginResponseSchema, ...errors } } }, async (request) => {
    return services.signIn.login(request.body.email, request.body.password, request.body.code, {
      userAgent: request.headers['user-agent'],
      ip: request.ip,
    });
  });

  app.post('/api/v1/auth/refresh', { schema: { body: emptyBodySchema, response: { 200: refreshResponseSchema, ...errors } } }, async (request, reply) => {
    return services.sessions.refresh(requireBearer(request), requestSource(request).client);
  });

  // Sign-out ends the session on the server too; the refresh token names it (like /refresh).
  app.post('/api/v1/auth/logout', { schema: { body: emptyBodySchema, response: { 200: z.object({}), ...errors } } }, async (request) => {
    const userId = await services.sessions.endByRefreshToken(requireBearer(request));
    if (userId) await services.audit.record({ kind: 'signed-out', userId }, { ...requestSource(request), actorId: userId });
    return {};
  });

  app.post('/api/v1/auth/password', { onRequest: services.authenticate, schema: { body: changePasswordRequestSchema, response: { 200: z.object({}), ...errors } } }, async (request) => {
    await services.accounts.changePassword(request.auth!, request.body.current_password, request.body.password, request.ip);
    await services.audit.record({ kind: 'password-changed', userId: request.auth!.userId, detail: 'changed' satisfies PasswordChange }, requestSource(request));
    return {};
  });

  app.post('/api/v1/auth/password-reset', { schema: { body: passwordResetRequestSchema, response: { 200: z.object({}), ...errors } } }, async (request) => {
    await services.passwordResets.request(request.body.email, requestSource(request));
    return {};
  });

  app.post('/api/v1/auth/password-reset/confirm', { schema: { body: passwordResetConfirmSchema, response: { 200: z.object({}), ...errors } } }, async (request) => {
    const { userId, twoStepOff } = await services.passwordResets.confirm(request.body.token, request.body.password);
    await services.audit.record({ kind: 'password-changed', userId, detail: 'reset-by-link' satisfies PasswordChange }, { ...requestSource(request), actorId: userId });
    if (twoStepOff) await services.audit.record({ kind: 'two-step-off', userId }, { ...requestSource(request), actorId: userId });
    return {};
  });

  app.get('/api/v1/auth/profile', { onRequest: services.authenticate, schema: { response: { 200: profileSchema, ...errors } } }, async (request) => {
    // Read with the session when the access token was checked: one query per call.
    return toProfile(request.auth!.user);
  });
};
