import { sql } from 'kysely';
import type { FastifyPluginAsync } from 'fastify';
import { migrations } from '../db/migrations/index';
import type { Services } from '../services';

const MIGRATION_COUNT = Object.keys(migrations).length;

/**
 * /healthz: the process answers. /readyz: the database answers and every migration this
 * version knows is applied, so a load balancer sends traffic only to replicas that can serve it.
 * No cache keeps either answer: like every API answer, they carry no-store (security-headers.ts).
 */
export const healthRoutes: FastifyPluginAsync<{ services: Services }> = async (app, { services }) => {
  app.get('/healthz', async () => ({ status: 'ok' }));

  app.get('/readyz', async (_request, reply) => {
    if (services.lifecycle.draining) return reply.code(503).send({ status: 'shutting down' });
    try {
      const { rows } = await sql<{ applied: number | string }>`select count(*) as applied from kysely_migration`.execute(services.db);
      if (Number(rows[0]?.applied ?? 0) < MIGRATION_COUNT) return reply.code(503).send({ status: 'migrating' });
      return { status: 'ready' };
    } catch {
      return reply.code(503).send({ status: 'database unreachable' });
    }
  });
};
