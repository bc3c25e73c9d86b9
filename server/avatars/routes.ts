import multipart from '@fastify/multipart';
import type { FastifyError } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '../../contract/errors';
import { AVATAR_MAX_BYTES, verificationStatusSchema } from '../../contract/verification';
import { AppError } from '../errors';
import type { Services } from '../services';
import { admittingUpload, readPicture, uploadRefusal, UPLOADS_BUSY } from './upload';

export const avatarRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  await app.register(multipart, { limits: { fileSize: AVATAR_MAX_BYTES, files: 1, fields: 4, parts: 5 } });

  app.put('/api/v1/avatar', {
    onRequest: services.authenticate,
    // No bodyLimit of its own: it bounds only the bodies Fastify reads whole (JSON, text), never a
    // multipart one, whose limits are the plugin's above. Raised to the picture's size, it let a
    // 5 MB JSON body be parsed here, to be refused as no picture.
    schema: { response: { 200: verificationStatusSchema, 400: errorBodySchema, 401: errorBodySchema, 413: errorBodySchema, 429: errorBodySchema, 503: errorBodySchema } },
    // Whatever is wrong with the upload itself is answered so (see uploadRefusal); a missing
    // token, throttling and server faults keep their own answers.
    errorHandler: (error: FastifyError, request, reply) => {
      if ((error as unknown) === UPLOADS_BUSY) {
        request.log.warn('avatar upload refused: too many at once');
        return reply.code(503).headers(UPLOADS_BUSY.headers).send({ error: UPLOADS_BUSY.message });
      }
      const refusal = uploadRefusal(error);
      if (!refusal) throw error;
      request.log.info({ reason: error.cause instanceof Error ? error.cause.message : error.message }, 'avatar upload refused');
      return reply.code(refusal.statusCode as 400 | 413).send({ error: refusal.message, field: refusal.field });
    },
  }, async (request) => {
    await admittingUpload(request.auth!.userId, async () => services.avatars.replace(request.auth!.userId, await readPicture(request)));
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
