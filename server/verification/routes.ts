import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { emptyBodySchema } from '../../contract/accounts';
import { errorBodySchema } from '../../contract/errors';
import { otpRequestSchema, verificationStatusSchema } from '../../contract/verification';
import type { Services } from '../services';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 409: errorBodySchema, 429: errorBodySchema, 503: errorBodySchema };

export const verificationRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  app.post('/api/v1/auth/email', { onRequest: services.authenticate, schema: { body: emptyBodySchema, response: { 200: verificationStatusSchema, ...errors } } }, async (request) => {
    await services.emailCodes.send(request.auth!.userId, request.ip);
    return services.accounts.verificationStatus(request.auth!.userId);
  });

  app.post('/api/v1/auth/email/otp', { onRequest: services.authenticate, schema: { body: otpRequestSchema, response: { 200: verificationStatusSchema, ...errors } } }, async (request) => {
    await services.emailCodes.confirm(request.auth!.userId, request.body.otp);
    return services.accounts.verificationStatus(request.auth!.userId);
  });

  app.post('/api/v1/auth/verify', { onRequest: services.authenticate, schema: { body: emptyBodySchema, response: { 200: verificationStatusSchema, ...errors } } }, async (request) => {
    return services.accounts.completeVerification(request.auth!.userId);
  });
};
