import multipart from '@fastify/multipart';
import type { FastifyError } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '../../contract/errors';
import { AVATAR_FIELD, AVATAR_MAX_BYTES, verificationStatusSchema } from '../../contract/verification';
import { AppError } from '../errors';
import type { Services } from '../services';

export const avatarRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  await app.register(multipart, { limits: { fileSize: AVATAR_MAX_BYTES, files: 1, fields: 4, parts: 5 } });

  app.put('/api/v1/avatar', {
    onRequest: services.authenticate,
    bodyLimit: AVATAR_MAX_BYTES + 64 * 1024,
    schema: { response: { 200: verificationStatusSchema, 400: errorBodySchema, 401: errorBodySchema, 413: errorBodySchema } },
    // Whatever is wrong with the upload itself, the answer is the spec's one message, or that
    // it is too large (the web app makes big photos smaller; another client may not); a missing
    // token, throttling and server faults keep their own.
    errorHandler: (error: FastifyError, request, reply) => {
      const status = error.statusCode ?? 500;
      if (status < 400 || status >= 500 || status === 401 || status === 403 || status === 429) throw error;
      request.log.info({ reason: error.message }, 'avatar upload refused');
      const refusal = status === 413 ? AppError.pictureTooLarge(AVATAR_MAX_BYTES) : AppError.notAnImage();
      return reply.code(refusal.statusCode as 400 | 413).send({ error: refusal.message, field: refusal.field });
    },
  }, async (request) => {
    if (!request.isMultipart()) throw AppError.notAnImage();
    const file = await request.file();
    if (!file || file.fieldname !== AVATAR_FIELD) throw AppError.notAnImage();
    const upload = await file.toBuffer();
    await services.avatars.replace(request.auth!.userId, upload);
    return services.accounts.verificationStatus(request.auth!.userId);
  });

  app.get('/avatars/:file', { schema: { params: z.object({ file: z.string().max(100) }) } }, async (request, reply) => {
    const id = /^([A-Za-z0-9_-]{32})\.webp$/.exec(request.params.file)?.[1];
    const avatar = id ? await services.avatars.find(id) : undefined;
    if (!avatar) throw AppError.notFound('picture');
    return reply
      .type(avatar.content_type)
      // The URL changes with every upload, so the bytes behind it never do.
      .header('Cache-Control', 'public, max-age=31536000, immutable')
      .header('Cross-Origin-Resource-Policy', 'cross-origin')
      .send(avatar.bytes);
  });
};
