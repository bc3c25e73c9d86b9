import { Writable } from 'node:stream';
import Fastify, { type FastifyError } from 'fastify';
import { describe, expect, it } from 'vitest';
import { AppError } from '../errors';
import { installErrorHandling, routerRefusal } from './error-handler';

/** An app with the error handler whose routes throw what they are given; its log lines are kept. */
async function appThrowing(thrown: () => unknown) {
  const lines: Array<{ level: number; msg: string }> = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  const app = Fastify({ logger: { level: 'info', stream } });
  installErrorHandling(app);
  let expected: boolean | undefined;
  app.addHook('onResponse', async (request) => {
    expected = request.answeredExpectedRefusal;
  });
  app.get('/api/v1/throws', async () => {
    throw thrown();
  });
  const answer = await app.inject({ url: '/api/v1/throws' });
  await app.close();
  const errors = lines.filter(({ level }) => level >= 50).map(({ msg }) => msg);
  return { status: answer.statusCode, body: answer.json(), headers: answer.headers, errors, expected };
}

/** An error as Fastify and its plugins raise them: a status and a code, no AppError. */
const fastifyError = (statusCode: number | undefined, code = 'FST_SOMETHING_ELSE') => Object.assign(new Error('raw words, never shown'), { statusCode, code });

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

  it("keeps the status of a 4xx no catalogue entry names, in the catalogue's generic words; anything else is a logged 500", async () => {
    for (const status of [400, 418, 499]) {
      expect(await appThrowing(() => fastifyError(status)), `${status}`).toMatchObject({ status, body: { error: 'The request could not be processed' }, errors: [] });
    }
    for (const status of [undefined, 399, 500, 503]) {
      expect(await appThrowing(() => fastifyError(status)), `${status}`).toMatchObject({ status: 500, body: { error: 'Internal server error' }, errors: ['unexpected error'] });
    }
  });

  it("answers the catalogue's errors as they are: the field, the headers, a step of a sign-in told to the metrics, and a 5xx logged", async () => {
    expect(await appThrowing(() => AppError.validation('email', 'is invalid'))).toMatchObject({ status: 400, body: { error: 'email: is invalid', field: 'email' }, errors: [], expected: false });
    expect(await appThrowing(() => AppError.authenticatorCodeRequired())).toMatchObject({ status: 401, body: { field: 'code' }, expected: true });
    const busy = await appThrowing(() => AppError.uploadsBusy(7));
    expect(busy).toMatchObject({ status: 503, body: { error: 'Many pictures are being uploaded right now; try again in a moment' }, errors: ['Many pictures are being uploaded right now; try again in a moment'] });
    expect(busy.headers['retry-after']).toBe('7');
    expect(await appThrowing(() => fastifyError(415, 'FST_ERR_CTP_INVALID_MEDIA_TYPE'))).toMatchObject({ status: 415, body: { error: AppError.unsupportedMediaType().message } });
  });
});

describe("the router's own refusals", () => {
  it('are the catalogue entry for their code, or its generic 400', () => {
    const refusal = (code: string) => routerRefusal(Object.assign(new Error('raw'), { code }) as FastifyError);
    expect(refusal('FST_ERR_BAD_URL')).toMatchObject({ statusCode: 400, message: AppError.brokenAddress().message });
    expect(refusal('FST_ERR_MAX_PARAM_LENGTH')).toMatchObject({ statusCode: 414 });
    expect(refusal('FST_ERR_ASYNC_CONSTRAINT')).toMatchObject({ statusCode: 400, message: 'The request could not be processed' });
  });
});
