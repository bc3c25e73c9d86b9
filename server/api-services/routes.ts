import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { emptyBodySchema } from '../../contract/accounts';
import { errorBodySchema } from '../../contract/errors';
import {
  apiServiceInputSchema,
  apiServiceListSchema,
  apiServiceSchema,
  createdApiServiceSchema,
  credentialsSchema,
  listQuerySchema,
  publicServiceSchema,
} from '../../contract/services';
import type { Services } from '../services';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };
const idParams = z.object({ id: z.string().max(100) });

export const apiServicesRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const admin = { onRequest: services.requireAdmin };
  const apiServices = services.apiServices;

  app.get('/api/v1/admin/api-services', { ...admin, schema: { querystring: listQuerySchema, response: { 200: apiServiceListSchema, ...errors } } }, async (request) => ({
    items: await apiServices.list(request.query.search),
  }));

  app.post('/api/v1/admin/api-services', { ...admin, schema: { body: apiServiceInputSchema, response: { 200: createdApiServiceSchema, ...errors } } }, async (request) =>
    apiServices.create(request.body),
  );

  app.get('/api/v1/admin/api-services/:id', { ...admin, schema: { params: idParams, response: { 200: apiServiceSchema, ...errors } } }, async (request) =>
    apiServices.get(request.params.id),
  );

  app.put('/api/v1/admin/api-services/:id', { ...admin, schema: { params: idParams, body: apiServiceInputSchema, response: { 200: apiServiceSchema, ...errors } } }, async (request) =>
    apiServices.update(request.params.id, request.body),
  );

  app.patch('/api/v1/admin/api-services/toggle/:id', { ...admin, schema: { params: idParams, body: emptyBodySchema, response: { 200: apiServiceSchema, ...errors } } }, async (request) =>
    apiServices.toggle(request.params.id),
  );

  app.post('/api/v1/admin/api-services/:id/credentials', { ...admin, schema: { params: idParams, body: emptyBodySchema, response: { 200: z.object({ credentials: credentialsSchema }), ...errors } } }, async (request) => ({
    credentials: await apiServices.regenerateSecret(request.params.id),
  }));

  app.get('/api/v1/api-services/client/:clientId', { schema: { params: z.object({ clientId: z.string().max(200) }), response: { 200: publicServiceSchema, 404: errorBodySchema } } }, async (request) =>
    apiServices.publicInfo(request.params.clientId),
  );
};
