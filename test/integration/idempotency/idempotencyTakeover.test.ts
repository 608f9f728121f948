import { randomUUID } from 'node:crypto';
import { requestHashOf } from '../../../src/idempotency/requestHash';
import { startApi, type RunningApi } from '../../../src/runtime/api';
import { idempotencyHashKey } from '../../../src/vault/cardVault';
import { call, startHarness, type Harness } from '../../helpers/harness';
import { api } from '../commerce/commerceHelpers';
import { cards, createPaymentTenant, type PaymentTenant } from '../payments/paymentsFixtures';

/**
 * Who may run a request whose Idempotency-Key is in progress: its owner while that API process
 * beats; a retry as soon as the owner stops (killed: see idempotencyApiCrash.test.ts). The retry
 * re-runs the handler, which joins the workflow the first run started (ids derive from the key).
 */
describe('Idempotency-Key ownership: heartbeats, takeover, and the same workflow on re-run', () => {
  let harness: Harness;
  let t: PaymentTenant;
  let otherInstance: RunningApi;
  beforeAll(async () => {
    harness = await startHarness();
    t = await createPaymentTenant(harness);
    // A second API instance over the same database and Temporal, with its own heartbeat.
    otherInstance = await startApi(
      {
        db: harness.db,
        temporal: harness.temporal,
        config: harness.config,
        logger: harness.logger,
        taskQueue: harness.taskQueue,
        sandboxUrl: harness.sandboxUrl,
      },
      0,
      '127.0.0.1',
    );
  });
  afterAll(async () => {
    await otherInstance?.stop();
    await harness?.stop();
  });

  const post = (target: { url: string }, path: string, body: unknown, key: string) =>
    call(target, 'POST', `${api}${path}`, { token: t.token, body, headers: { 'idempotency-key': key } });
  const purchase = async (mode: 'purchase' | 'auth') =>
    (
      await post(
        harness,
        '/payments/process',
        {
          storeId: t.storeId,
          customerId: t.customerId,
          currency: 'EUR',
          amount: 1500,
          mode,
          paymentInstrumentId: await t.instrument(cards.approve),
        },
        randomUUID(),
      )
    ).body.payment.id as string;
  /** Puts the record back as a killed API process leaves it: in progress, owned by a process that no longer beats. */
  const asIfItsProcessDied = (key: string) =>
    harness.db
      .$executeRaw`UPDATE "idempotency_records" SET "state" = 'in_progress', "response_status" = NULL, "response_body" = NULL, "owner_id" = 'apiproc_killed', "created_at" = now() AT TIME ZONE 'UTC' WHERE "key" = ${key}`;

  it.each([
    ['capture', 'auth', { amount: 1000 }],
    ['void', 'auth', {}],
    ['refund', 'purchase', { amount: 400 }],
  ] as const)(
    '%s: a retry of a request whose process died runs again at once and joins the same workflow',
    async (operation, mode, extra) => {
      const paymentId = await purchase(mode);
      const key = randomUUID();
      const body = { paymentId, ...extra };
      const first = await post(harness, `/payments/${operation}`, body, key);
      expect(first.status).toBe(200);
      await asIfItsProcessDied(key);

      const startedAt = Date.now();
      const retried = await post(otherInstance, `/payments/${operation}`, body, key);
      expect(Date.now() - startedAt).toBeLessThan(3_000);
      expect(retried.status).toBe(200);
      expect(retried.headers.get('idempotent-replayed')).toBeNull(); // it ran again…
      expect(retried.body).toEqual(first.body); // …and answered from the same run
      expect(await t.ledger(t.processorIds[0]!, { reference: paymentId, operation })).toHaveLength(1);
      expect((await harness.db.idempotencyRecord.findFirstOrThrow({ where: { key } })).state).toBe('completed');
    },
  );

  it('pay-v2: the re-run follows the payment its first run made, though that payment has paid the session since', async () => {
    const checkout = await t.checkout();
    const body = { checkoutSessionId: checkout.id, paymentInstrumentId: await t.instrument(cards.approve) };
    const key = randomUUID();
    const first = await post(harness, '/checkout/pay-v2', body, key);
    expect(first.status).toBe(200);
    await asIfItsProcessDied(key);
    const retried = await post(otherInstance, '/checkout/pay-v2', body, key);
    expect([retried.status, retried.body]).toEqual([200, first.body]); // not 409 CHECKOUT_ALREADY_PAID
    expect(
      await t.ledger(t.processorIds[0]!, { reference: first.body.payment.id, operation: 'authorize' }),
    ).toHaveLength(1);
  });

  it('a record whose owner still beats is never taken over: the repeat waits and replays its answer', async () => {
    const scope = `crm:${t.merchant.accountId}:test`;
    /** An in-progress refund record owned by `ownerId`, as an API process that is running it leaves it. */
    const inProgress = async (ownerId: string, paymentId: string) => {
      const body = { paymentId, amount: 1 };
      const key = randomUUID();
      const hash = requestHashOf(
        { method: 'POST', baseUrl: api, path: '/payments/refund', body },
        idempotencyHashKey(harness.config),
      );
      await harness.db.$executeRaw`
        INSERT INTO "idempotency_records" ("id", "scope", "key", "request_hash", "method", "path", "state", "created_at", "expires_at", "owner_id")
        VALUES (${`req_${randomUUID()}`}, ${scope}, ${key}, ${hash}, 'POST', ${`${api}/payments/refund`}, 'in_progress', now() AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC' + interval '1 day', ${ownerId})`;
      return { body, key };
    };
    const beat = (ownerId: string) =>
      harness.db
        .$executeRaw`INSERT INTO "idempotency_owners" ("id", "heartbeat_at") VALUES (${ownerId}, now() AT TIME ZONE 'UTC') ON CONFLICT ("id") DO UPDATE SET "heartbeat_at" = EXCLUDED."heartbeat_at"`;
    const ownerId = `apiproc_alive_${randomUUID()}`;
    // The control: an owner that beat once and then went silent, so a repeat takes it over after 3 s.
    const silentOwnerId = `apiproc_silent_${randomUUID()}`;
    await beat(ownerId);
    await beat(silentOwnerId);
    const alive = await inProgress(ownerId, 'pay_notreallyrunning00');
    const silent = await inProgress(silentOwnerId, 'pay_notreallyrunning01');
    // A Prisma query runs only once awaited or then-ed.
    const beating = setInterval(() => void beat(ownerId).then(undefined, () => undefined), 500);
    try {
      const repeat = post(harness, '/payments/refund', alive.body, alive.key);
      const control = post(harness, '/payments/refund', silent.body, silent.key);
      // Sent together and waiting alike: once the silent owner's request was taken over and run (its
      // handler answers 404: no such payment), the 3 s a silent owner is given have passed, and the
      // beating owner must still hold its own.
      expect((await control).status).toBe(404);
      expect((await harness.db.idempotencyRecord.findFirstOrThrow({ where: { key: alive.key } })).ownerId).toBe(
        ownerId,
      );
      // The owner's own answer (an error-shaped 409 the operation declares, so the contract check accepts it).
      const owners = { code: 'REFUND_EXCEEDS_CAPTURED', message: `answered by ${ownerId}` };
      await harness.db.idempotencyRecord.updateMany({
        where: { key: alive.key },
        data: { state: 'completed', responseStatus: 409, responseBody: owners },
      });
      const answer = await repeat;
      expect(answer.status).toBe(409);
      expect(answer.body).toEqual(owners);
      expect(answer.headers.get('idempotent-replayed')).toBe('true');
    } finally {
      clearInterval(beating);
    }
  });

  it('12 identical pay-v2 calls with one key, split over two API instances, charge once and all answer alike', async () => {
    const checkout = await t.checkout();
    const body = { checkoutSessionId: checkout.id, paymentInstrumentId: await t.instrument(cards.approve) };
    const key = randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => post(i % 2 ? otherInstance : harness, '/checkout/pay-v2', body, key)),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(12).fill(200));
    for (const answer of answers) expect(answer.body).toEqual(answers[0]!.body);
    expect(await harness.db.payment.count({ where: { checkoutSessionId: checkout.id } })).toBe(1);
    expect(
      await t.ledger(t.processorIds[0]!, { reference: answers[0]!.body.payment.id, operation: 'authorize' }),
    ).toHaveLength(1);
  });

  it('12 identical refunds with one key, split over two API instances, refund once', async () => {
    const paymentId = await purchase('purchase');
    const key = randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        post(i % 2 ? otherInstance : harness, '/payments/refund', { paymentId, amount: 300 }, key),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(12).fill(200));
    for (const answer of answers) expect(answer.body).toEqual(answers[0]!.body);
    expect(await harness.db.refund.count({ where: { paymentId } })).toBe(1);
    expect(await t.ledger(t.processorIds[0]!, { reference: paymentId, operation: 'refund' })).toHaveLength(1);
  });
});
