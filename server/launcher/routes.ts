import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBodySchema } from '../../contract/errors';
import { launcherSchema } from '../../contract/services';
import type { Services } from '../services';

/** GET /api/v1/auth/launcher: what Home lists for the signed-in person to open. */
export const launcherRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  app.get('/api/v1/auth/launcher', { onRequest: services.authenticate, schema: { response: { 200: launcherSchema, 401: errorBodySchema } } }, async (request, reply) => {
    return { items: await services.launcher.list(request.auth!.userId) };
  });
};
