import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { emptyBodySchema } from '../../contract/accounts';
import { errorBodySchema } from '../../contract/errors';
import { newRecoveryCodesSchema, recoveryCodesSchema, twoStepSetupSchema, twoStepStatusSchema, twoStepTurnedOnSchema, twoStepTurnOffSchema, twoStepTurnOnSchema } from '../../contract/two-step';
import { AppError } from '../errors';
import type { Services } from '../services';
import type { SignedInUser } from '../sessions/user-sessions-repository';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 409: errorBodySchema, 413: errorBodySchema, 415: errorBodySchema, 429: errorBodySchema };

/** The signed-in person's two-step sign-in: its state, setting it up, turning it on and off (each after the password), and recovery codes. */
export const twoStepRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const { authenticatorApps, signIn, audit } = services;

  app.get('/api/v1/auth/two-step', { onRequest: services.authenticate, schema: { response: { 200: twoStepStatusSchema, ...errors } } }, async (request, reply) => {
    return authenticatorApps.status(request.auth!.userId);
  });

  /**
   * Until the email is proved, the account may be someone else's registration of that address: an
   * app set up then would keep the mailbox's owner out even after a reset by mail.
   */
  const mustHaveVerifiedEmail = (user: SignedInUser) => {
    if (user.email_verified !== 1) throw AppError.twoStepNeedsVerifiedEmail();
  };

  app.post('/api/v1/auth/two-step/setup', { onRequest: services.authenticate, schema: { body: emptyBodySchema, response: { 200: twoStepSetupSchema, ...errors } } }, async (request, reply) => {
    mustHaveVerifiedEmail(request.auth!.user);
    return authenticatorApps.setup(request.auth!.user);
  });

  app.put('/api/v1/auth/two-step', { onRequest: services.authenticate, schema: { body: twoStepTurnOnSchema, response: { 200: twoStepTurnedOnSchema, ...errors } } }, async (request, reply) => {
    mustHaveVerifiedEmail(request.auth!.user);
    // The password first, as for turning it off: a stolen session alone cannot enrol an app of its own.
    await signIn.provePassword(request.auth!, request.body.current_password, request.ip);
    const turnedOn = await authenticatorApps.turnOn(request.auth!.user, request.body.secret, request.body.code);
    return audit.recordedAnswer(request, { kind: 'two-step-on', userId: request.auth!.userId }, turnedOn);
  });

  app.post('/api/v1/auth/two-step/recovery-codes', { onRequest: services.authenticate, schema: { body: newRecoveryCodesSchema, response: { 200: recoveryCodesSchema, ...errors } } }, async (request, reply) => {
    await signIn.provePassword(request.auth!, request.body.current_password, request.ip);
    const codes = await authenticatorApps.renewRecoveryCodes(request.auth!.user);
    return audit.recordedAnswer(request, { kind: 'recovery-codes-renewed', userId: request.auth!.userId }, codes);
  });

  app.delete('/api/v1/auth/two-step', { onRequest: services.authenticate, schema: { body: twoStepTurnOffSchema, response: { 200: twoStepStatusSchema, ...errors } } }, async (request) => {
    await signIn.provePassword(request.auth!, request.body.current_password, request.ip);
    const { status, wasOn } = await authenticatorApps.turnOff(request.auth!.user, 'self');
    return wasOn ? audit.recordedAnswer(request, { kind: 'two-step-off', userId: request.auth!.userId }, status) : status;
  });
};
