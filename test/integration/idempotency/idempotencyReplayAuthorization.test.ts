import { randomUUID } from 'node:crypto';
import { addCrmKey } from '../../helpers/fixtures';
import { call } from '../../helpers/harness';
import { usePaymentTenant } from '../../helpers/fixtures/payments';
import { useHarness } from '../../helpers/useHarness';
import { api } from '../commerce/commerceHelpers';
import { startReceiver, type Receiver } from '../webhooks/webhookReceiver';

/**
 * A stored answer is replayed only to a caller allowed to make the request (the role check runs
 * before the replay), and answers that show a secret once are stored without it.
 */
describe('Idempotency-Key replays: authorized first, never a secret (Postgres, dev server)', () => {
  const harness = useHarness();
  const t = usePaymentTenant(harness);
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.stop();
  });

  const createEndpoint = (token: string, key: string, body: unknown) =>
    call(harness, 'POST', `${api}/webhooks`, { token, body, headers: { 'idempotency-key': key } });

  it("a member key sending an admin's key and body gets 403, not the stored answer", async () => {
    const member = await addCrmKey(harness.db, t.merchant, { role: 'org:member' });
    const key = randomUUID();
    const body = { storeId: t.storeId, url: `${receiver.url}/a`, eventTypes: ['order/paid'] };
    const created = await createEndpoint(t.token, key, body);
    expect(created.status).toBe(201);

    const asMember = await createEndpoint(member, key, body);
    expect([asMember.status, asMember.body.code]).toEqual([403, 'ROLE_REQUIRED']);
    expect(asMember.headers.get('idempotent-replayed')).toBeNull();
    expect(JSON.stringify(asMember.body)).not.toContain(created.body.id);
  });

  it('stores a webhook endpoint creation without its signing secret; a replay answers the endpoint, not the secret', async () => {
    const key = randomUUID();
    const body = { storeId: t.storeId, url: `${receiver.url}/b`, eventTypes: ['order/paid'] };
    const created = await createEndpoint(t.token, key, body);
    expect(created.status).toBe(201);
    const secret = created.body.secret as string;
    expect(secret).toMatch(/^whsec_/);

    const record = await harness.db.idempotencyRecord.findFirstOrThrow({ where: { key } });
    expect(record.state).toBe('completed');
    expect(JSON.stringify(record.responseBody)).not.toContain(secret);
    expect(record.responseBody).not.toHaveProperty('secret');
    expect(record.responseBody).toMatchObject({ id: created.body.id });

    const replay = await createEndpoint(t.token, key, body);
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    const { secret: _shownOnce, ...endpoint } = created.body;
    expect(replay.body).toEqual(endpoint);
    expect(JSON.stringify(replay.body)).not.toContain(secret);
    expect(await harness.db.webhookEndpoint.count({ where: { url: body.url } })).toBe(1);
  });
});
