import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { apiServiceInputSchema } from '../../contract/services';
import { ApiServicesRepository } from '../../server/api-services/api-services-repository';
import { ApiServicesService } from '../../server/api-services/api-services-service';
import { hashClientSecret } from '../../server/api-services/client-secrets';
import { failingQueries } from '../support/failing-queries';
import { holdTheNextCallAfterItsAnswer, meetingAt } from '../support/hold-a-call';
import { serviceForm } from '../support/service-form';
import { call, registerAndLogin, startTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
let admin: Awaited<ReturnType<typeof registerAndLogin>>;
beforeEach(async () => {
  t = await startTestApp();
  admin = await registerAndLogin(t.app); // the first account is the administrator
});
afterEach(async () => t.close());

describe('a creation sent again with its Idempotency-Key (its answer lost on the way)', () => {
  const create = (key: string | undefined, body = serviceForm()) =>
    call(t.app, 'POST', '/api/v1/admin/api-services', { token: admin.access, body, headers: key === undefined ? {} : { 'idempotency-key': key } });
  const rows = () => t.db.selectFrom('api_services').select(['id', 'name', 'client_secret_hash']).execute();
  const auditKinds = async () => (await t.db.selectFrom('audit_events').select('kind').where('kind', 'like', 'service-%').orderBy('at').execute()).map((event) => event.kind);

  it('gets the service it made, with a new secret (nobody saw the first), not a second service', async () => {
    const key = randomUUID();
    const first = await create(key);
    const again = await create(key);
    expect([first.status, again.status]).toEqual([200, 200]);
    expect(again.body.id).toBe(first.body.id);
    expect(again.body.credentials.client_id).toBe(first.body.credentials.client_id);
    expect(again.body.credentials.client_secret).not.toBe(first.body.credentials.client_secret);
    const stored = await rows();
    expect(stored).toHaveLength(1);
    expect(stored[0]!.client_secret_hash).toBe(hashClientSecret(again.body.credentials.client_secret));
    expect(await auditKinds()).toEqual(['service-created', 'service-credentials-regenerated']);
  });

  it('makes one service of two sent at once, both having found the key unused: the one that lost the race answers what the other made', async () => {
    const key = randomUUID();
    const answers = await meetingAt(() => holdTheNextCallAfterItsAnswer(ApiServicesRepository.prototype, 'findByCreationKey'), [() => create(key), () => create(key)]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    expect(answers[1]!.body.id).toBe(answers[0]!.body.id);
    // The later answer's secret is the one that works: the first was replaced, as when sent again.
    const stored = await rows();
    expect(stored).toHaveLength(1);
    expect(answers.filter((answer) => hashClientSecret(answer.body.credentials.client_secret) === stored[0]!.client_secret_hash)).toHaveLength(1);
    expect(await auditKinds()).toEqual(['service-created', 'service-credentials-regenerated']);
  });

  it('is refused with other settings, or over an hour later, changing nothing; without a key each creation is its own', async () => {
    const key = randomUUID();
    const first = await create(key);
    const refusal = 'The service sent with this Idempotency-Key was created already (over an hour ago, or with other settings): open it from the API Services list';
    for (const other of [{ name: 'Immich' }, { redirect_uris: ['https://elsewhere.home.lan/cb'] }, { public_client: true }, { is_active: false }]) {
      const changed = await create(key, serviceForm(other));
      expect([changed.status, changed.body.error], JSON.stringify(other)).toEqual([409, refusal]);
    }
    t.advance(60 * 60_000);
    admin.access = (await call(t.app, 'POST', '/api/v1/auth/login', { body: { email: admin.email, password: admin.password } })).body.access; // the old one expired
    const lastMoment = await create(key); // an hour to the millisecond: still the service it made
    expect([lastMoment.status, lastMoment.body.id]).toEqual([200, first.body.id]);
    t.advance(1);
    const late = await create(key);
    expect([late.status, late.body.error]).toEqual([409, refusal]);
    expect(await rows()).toEqual([{ id: first.body.id, name: 'Grafana', client_secret_hash: hashClientSecret(lastMoment.body.credentials.client_secret) }]);

    expect((await create(undefined)).status).toBe(200);
    expect((await create(undefined)).status).toBe(200);
    expect(await rows()).toHaveLength(3);
  });

  it('answers a service that could not be stored with that failure, not as a creation sent before', async () => {
    const storingFails = new ApiServicesService(new ApiServicesRepository(t.db.withPlugin(failingQueries('InsertQueryNode', 'disk full'))), () => t.app.services.clock());
    await expect(storingFails.create(apiServiceInputSchema.parse(serviceForm()), randomUUID())).rejects.toThrow('disk full');
    expect(await rows()).toEqual([]);
  });

  it('refuses a key that is not 16 to 100 letters, digits, - or _, creating nothing', async () => {
    for (const key of ['short', 'x'.repeat(101), 'has spaces in it, sixteen+']) {
      const refused = await create(key);
      expect([refused.status, refused.body.error]).toEqual([400, 'Idempotency-Key: must be 16 to 100 letters, digits, - or _']);
    }
    expect(await rows()).toHaveLength(0);
  });

  it('answers a public client sent again with its client ID alone, as the first time', async () => {
    const key = randomUUID();
    const first = await create(key, serviceForm({ public_client: true }));
    const again = await create(key, serviceForm({ public_client: true }));
    expect(again.body).toEqual(first.body);
    expect(again.body.credentials.client_secret).toBeNull();
    expect(await auditKinds()).toEqual(['service-created']);
  });
});
