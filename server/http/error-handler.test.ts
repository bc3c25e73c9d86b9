import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { installErrorHandling } from './error-handler';

describe('the error handler', () => {
  it("answers a SyntaxError of the server's own 500, and only the body parser's 400", async () => {
    const app = Fastify({ logger: false });
    installErrorHandling(app);
    app.get('/api/v1/boom', async () => JSON.parse('undefined'));
    app.post('/api/v1/echo', async (request) => request.body);
    const boom = await app.inject({ url: '/api/v1/boom' });
    expect([boom.statusCode, boom.json()]).toEqual([500, { error: 'Internal server error' }]);
    const broken = await app.inject({ method: 'POST', url: '/api/v1/echo', headers: { 'content-type': 'application/json' }, payload: '{"a":' });
    expect([broken.statusCode, broken.json()]).toEqual([400, { error: 'The request body is not valid JSON' }]);
    await app.close();
  });
});
