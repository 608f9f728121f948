import { randomUUID } from 'node:crypto';
import { freePort } from '../../../temporal/devServer';
import { startApiProcess, type ApiProcess } from '../../helpers/apiProcess';
import { call, startHarness, type Harness } from '../../helpers/harness';
import { until } from '../../helpers/until';
import { api } from '../commerce/commerceHelpers';
import { cards, createPaymentTenant, type PaymentTenant } from '../payments/paymentsFixtures';
import { testVaultEnv } from '../subscriptions/subscriptionsFixtures';

/**
 * `kill -9` of a real API process while two payments (pay-v2 and /payments/process) are held at
 * the acquirer (test holds); the API is started again and the client retries with the same
 * Idempotency-Keys. The dead process's records stop being refreshed, so the retries take them
 * over within seconds, re-run their handlers and join the same running payment workflows, which
 * are still at the acquirer: the holds are released only once both records were taken over.
 */
describe('a retry after the API process was killed mid-payment', () => {
  let harness: Harness;
  let t: PaymentTenant;
  let port: number;
  const apis: ApiProcess[] = [];
  beforeAll(async () => {
    // The worker (in this process) waits for the held calls longer than the test holds them.
    harness = await startHarness({ ...testVaultEnv, PROCESSOR_TIMEOUT_MS: '20000' });
    t = await createPaymentTenant(harness);
    port = await freePort();
  });
  afterAll(async () => {
    for (const apiProcess of apis) await apiProcess.kill();
    await harness?.stop();
  });

  const startApi = async () => {
    const started = await startApiProcess(port, {
      ...testVaultEnv,
      TEMPORAL_TASK_QUEUE: harness.taskQueue,
      SANDBOX_URL: harness.sandboxUrl,
    });
    apis.push(started);
    return started;
  };
  const send = (target: { url: string }, path: string, body: unknown, key: string) =>
    call(target, 'POST', `${api}${path}`, { token: t.token, body, headers: { 'idempotency-key': key } });

  /** A checkout and a /payments/process purchase, each with its own key; the acquirer holds both calls. */
  async function twoPayments() {
    const checkout = await t.checkout();
    const processInstrument = await t.instrument(cards.approve);
    const holds = [await t.hold(t.processorIds[0]!), await t.hold(t.processorIds[0]!)];
    const requests = [
      {
        path: '/checkout/pay-v2',
        body: { checkoutSessionId: checkout.id, paymentInstrumentId: await t.instrument(cards.approve) },
        key: randomUUID(),
      },
      {
        path: '/payments/process',
        body: {
          storeId: t.storeId,
          customerId: t.customerId,
          currency: 'EUR',
          amount: 4321,
          paymentInstrumentId: processInstrument,
        },
        key: randomUUID(),
      },
    ];
    const rows = { OR: [{ checkoutSessionId: checkout.id }, { paymentInstrumentId: processInstrument }] };
    const processing = () => harness.db.payment.count({ where: { ...rows, status: 'processing' } });
    return { checkout, requests, rows, processing, holds };
  }

  /** Sends both to `target`, waits until both payments are at the acquirer, then kills `target`'s process. */
  async function killMidPayment(
    target: ApiProcess,
    payments: Awaited<ReturnType<typeof twoPayments>>,
  ): Promise<number> {
    const cutOff = payments.requests.map(({ path, body, key }) =>
      send(target, path, body, key).then(
        (answer) => answer.status,
        () => 'connection lost' as const,
      ),
    );
    for (const hold of payments.holds) await hold.holding();
    await target.kill();
    const killedAt = Date.now();
    expect(await Promise.all(cutOff)).toEqual(['connection lost', 'connection lost']);
    const keys = payments.requests.map((request) => request.key);
    expect(await harness.db.idempotencyRecord.count({ where: { key: { in: keys }, state: 'in_progress' } })).toBe(2);
    return killedAt;
  }

  /**
   * Retries both at `target`; each answer with its time since `since`. The acquirer lets the held
   * calls go only once both retries took their records over: they join payments still in flight.
   */
  async function retry(target: { url: string }, payments: Awaited<ReturnType<typeof twoPayments>>, since: number) {
    const keys = payments.requests.map((request) => request.key);
    const owners = async () =>
      (await harness.db.idempotencyRecord.findMany({ where: { key: { in: keys } } })).map((r) => r.ownerId);
    const deadOwners = await owners();
    const answers = Promise.all(
      payments.requests.map(async ({ path, body, key }) => {
        const answer = await send(target, path, body, key);
        return { status: answer.status, body: answer.body, ms: Date.now() - since };
      }),
    );
    await until(async () =>
      (await owners()).every((owner) => owner !== null && !deadOwners.includes(owner)) ? true : undefined,
    );
    expect(await payments.processing()).toBe(2);
    for (const hold of payments.holds) await hold.release();
    return answers;
  }

  /** Both succeeded, one payment row and one acquirer authorization each, one order for the session. */
  async function expectChargedOnce(
    payments: Awaited<ReturnType<typeof twoPayments>>,
    answers: Awaited<ReturnType<typeof retry>>,
  ) {
    expect(answers[0]).toMatchObject({
      status: 200,
      body: { payment: { status: 'succeeded', amount: payments.checkout.total } },
    });
    expect(answers[1]).toMatchObject({ status: 200, body: { payment: { status: 'succeeded', amount: 4321 } } });
    const rows = await harness.db.payment.findMany({ where: payments.rows });
    expect(rows.map((row) => row.id).sort()).toEqual(answers.map((answer) => answer.body.payment.id).sort());
    for (const row of rows) {
      expect(await t.ledger(t.processorIds[0]!, { reference: row.id, operation: 'authorize' })).toEqual([
        expect.objectContaining({ outcome: 'approved', amount: row.amount }),
      ]);
    }
    expect(await harness.db.order.count({ where: { checkoutSessionId: payments.checkout.id } })).toBe(1);
  }

  it('answers the requests retried after a restart within 10 s of the API being back (not the 60 s owner lease), each payment charged once', async () => {
    const payments = await twoPayments();
    const killedAt = await killMidPayment(await startApi(), payments);
    const restarted = await startApi();
    const backAt = Date.now();
    const answers = await retry(restarted, payments, backAt);
    process.stdout.write(
      `restart took ${backAt - killedAt} ms; answers ${answers.map((a) => a.ms).join(' / ')} ms after it\n`,
    );
    await expectChargedOnce(payments, answers);
    for (const answer of answers) expect(answer.ms).toBeLessThan(10_000);
    // Stored now: a third try is a replay.
    const replay = await send(
      restarted,
      payments.requests[0]!.path,
      payments.requests[0]!.body,
      payments.requests[0]!.key,
    );
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(answers[0]!.body);
  }, 120_000);

  it('a retry sent at once to another API instance joins the payments still at the acquirer', async () => {
    const payments = await twoPayments();
    const victim = apis.find(
      (apiProcess) => apiProcess.child.exitCode === null && apiProcess.child.signalCode === null,
    )!;
    const killedAt = await killMidPayment(victim, payments);
    // The in-process API of the harness is the other instance (its own heartbeat, same database).
    const answers = await retry(harness, payments, killedAt);
    process.stdout.write(`retried at the kill; answers ${answers.map((a) => a.ms).join(' / ')} ms after it\n`);
    await expectChargedOnce(payments, answers);
    // The takeover waited for the dead owner's heartbeat to age (3 s), then for the acquirer, not for a minute.
    for (const answer of answers) expect(answer.ms).toBeLessThan(10_000);
  }, 120_000);
});
