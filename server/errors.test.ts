import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { AppError, installErrorHandling } from './errors';

describe('throttled attempts', () => {
  it('say how long to wait, in words and in Retry-After', () => {
    const soon = AppError.tooManyAttempts(12.2);
    expect(soon.message).toBe('Too many failed attempts; try again in a minute');
    expect(soon.headers).toEqual({ 'Retry-After': '13' });
    expect(AppError.tooManyAttempts(601).message).toBe('Too many failed attempts; try again in 11 minutes');
    expect(AppError.tooManyAttempts(90 * 60).message).toBe('Too many failed attempts; try again in 90 minutes');
    expect(AppError.tooManyAttempts(23.5 * 3600).message).toBe('Too many failed attempts; try again in 24 hours');
  });
});

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
