import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { emptyBodySchema } from '../../contract/accounts';
import { errorBodySchema } from '../../contract/errors';
import {
  apiServiceInputSchema,
  apiServiceListSchema,
  apiServiceSchema,
  apiServiceToggleSchema,
  apiServiceUpdateSchema,
  createdApiServiceSchema,
  credentialsSchema,
  IDEMPOTENCY_KEY_HEADER,
  idempotencyKeySchema,
  listQuerySchema,
  publicServiceSchema,
} from '../../contract/services';
import { serviceDetail, type AuditEventKind } from '../../contract/audit';
import { AppError } from '../errors';
import type { Services } from '../services';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };
const idParams = z.object({ id: z.string().max(100) });

export const apiServicesRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const admin = { onRequest: services.requireAdmin };
  const apiServices = services.apiServices;

  app.get('/api/v1/admin/api-services', { ...admin, schema: { querystring: listQuerySchema, response: { 200: apiServiceListSchema, ...errors } } }, async (request) => ({
    items: await apiServices.list(request.query.search),
  }));

  // The detail names the service as it is named now, for when it is gone; a change adds what changed.
  const recorded = <T>(request: FastifyRequest, kind: AuditEventKind, service: { id: string; name: string }, answer: T, changed: string[] = []): Promise<T> =>
    services.audit.recordedAnswer(request, { kind, serviceId: service.id, detail: serviceDetail(service.name, changed) }, answer);

  // A field the form does not take is refused (.strict()), not dropped with a 200 that says it was saved.
  app.post('/api/v1/admin/api-services', { ...admin, schema: { body: apiServiceInputSchema.strict(), response: { 200: createdApiServiceSchema, ...errors } } }, async (request) => {
    const key = request.headers[IDEMPOTENCY_KEY_HEADER.toLowerCase()];
    const creationKey = key === undefined ? undefined : idempotencyKeySchema.safeParse(key);
    if (creationKey?.success === false) throw AppError.validation(IDEMPOTENCY_KEY_HEADER, creationKey.error.issues[0]?.message ?? 'is not valid');
    const { repeated, ...created } = await apiServices.create(request.body, creationKey?.data);
    const service = { id: created.id, name: request.body.name };
    if (!repeated) return recorded(request, 'service-created', service, created);
    // Sent again: what changed now is the secret (a public client's answer changes nothing).
    return created.credentials.client_secret === null ? created : recorded(request, 'service-credentials-regenerated', service, created);
  });

  app.get('/api/v1/admin/api-services/:id', { ...admin, schema: { params: idParams, response: { 200: apiServiceSchema, ...errors } } }, async (request) =>
    apiServices.get(request.params.id),
  );

  app.put('/api/v1/admin/api-services/:id', { ...admin, schema: { params: idParams, body: apiServiceUpdateSchema.strict(), response: { 200: apiServiceSchema, ...errors } } }, async (request) => {
    const { service, turned, changed } = await apiServices.update(request.params.id, request.body);
    if (turned) await recorded(request, service.is_active ? 'service-turned-on' : 'service-turned-off', service, service);
    return changed.length > 0 ? recorded(request, 'service-changed', service, service, changed) : service;
  });

  app.patch('/api/v1/admin/api-services/toggle/:id', { ...admin, schema: { params: idParams, body: apiServiceToggleSchema, response: { 200: apiServiceSchema, ...errors } } }, async (request) => {
    const { service, changed } = await apiServices.toggle(request.params.id, request.body?.is_active);
    if (!changed) return service;
    return recorded(request, service.is_active ? 'service-turned-on' : 'service-turned-off', service, service);
  });

  app.post('/api/v1/admin/api-services/:id/credentials', { ...admin, schema: { params: idParams, body: emptyBodySchema, response: { 200: z.object({ credentials: credentialsSchema }), ...errors } } }, async (request) => {
    const credentials = await apiServices.regenerateSecret(request.params.id);
    return recorded(request, 'service-credentials-regenerated', await apiServices.get(request.params.id), { credentials });
  });

  app.delete('/api/v1/admin/api-services/:id', { ...admin, schema: { params: idParams, body: emptyBodySchema, response: { 200: z.object({}), ...errors } } }, async (request) =>
    recorded(request, 'service-deleted', await apiServices.delete(request.params.id), {}),
  );

  app.get('/api/v1/api-services/client/:clientId', { schema: { params: z.object({ clientId: z.string().max(200) }), response: { 200: publicServiceSchema, 404: errorBodySchema } } }, async (request) =>
    apiServices.publicInfo(request.params.clientId),
  );
};
