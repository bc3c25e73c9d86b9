import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { emptyBodySchema } from '../../contract/accounts';
import { errorBodySchema } from '../../contract/errors';
import { twoStepSetupSchema, twoStepStatusSchema, twoStepTurnOffSchema, twoStepTurnOnSchema } from '../../contract/two-step';
import type { Services } from '../services';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 409: errorBodySchema, 413: errorBodySchema, 415: errorBodySchema, 429: errorBodySchema };

/** The signed-in person's two-step sign-in: its state, setting it up, turning it on and off. */
export const twoStepRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const { authenticatorApps, accounts } = services;

  app.get('/api/v1/auth/two-step', { onRequest: services.authenticate, schema: { response: { 200: twoStepStatusSchema, ...errors } } }, async (request, reply) => {
    reply.header('Cache-Control', 'no-store');
    return authenticatorApps.status(request.auth!.userId);
  });

  app.post('/api/v1/auth/two-step/setup', { onRequest: services.authenticate, schema: { body: emptyBodySchema, response: { 200: twoStepSetupSchema, ...errors } } }, async (request, reply) => {
    reply.header('Cache-Control', 'no-store');
    return authenticatorApps.setup(request.auth!.user.email);
  });

  app.put('/api/v1/auth/two-step', { onRequest: services.authenticate, schema: { body: twoStepTurnOnSchema, response: { 200: twoStepStatusSchema, ...errors } } }, async (request) => {
    return authenticatorApps.turnOn(request.auth!.user, request.body.secret, request.body.code);
  });

  app.delete('/api/v1/auth/two-step', { onRequest: services.authenticate, schema: { body: twoStepTurnOffSchema, response: { 200: twoStepStatusSchema, ...errors } } }, async (request) => {
    await accounts.provePassword(request.auth!, request.body.current_password);
    return authenticatorApps.turnOff(request.auth!.user, 'self');
  });
};
