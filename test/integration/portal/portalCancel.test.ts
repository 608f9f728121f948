import type { ApiAnswer } from '../../helpers/harness';
import { portalLogin } from '../subscriptions/subscriptionsFixtures';
import { usePortalWorld } from './portalWorld';

/**
 * POST /api/v1/portal/subscriptions/cancel and /resume against the real workflow: the change, its
 * event, the refusals (409), and bursts of identical requests that change the subscription once.
 */
describe('portal: the customer cancels and resumes a subscription', () => {
  const world = usePortalWorld();
  const burst = 10;
  let token: string;

  beforeAll(async () => {
    token = await portalLogin(world.harness, world.storeA, world.email);
  });

  const cancel = (body: unknown, headers: Record<string, string> = {}) =>
    world.portal(token, '/subscriptions/cancel', body, headers);
  const resume = (subscriptionId: string) => world.portal(token, '/subscriptions/resume', { subscriptionId });
  const all = (make: () => Promise<ApiAnswer>) => Promise.all(Array.from({ length: burst }, make));

  /** The subscription's events of one type, oldest first. */
  const eventsOf = (subscriptionId: string, eventType: string) =>
    world.harness.db.event.findMany({
      where: { eventType, properties: { path: ['subscriptionId'], equals: subscriptionId } },
      orderBy: { createdAt: 'asc' },
    });
  const rowOf = (id: string) => world.harness.db.subscription.findUniqueOrThrow({ where: { id } });
  const workflowStatus = async (id: string) =>
    (await world.harness.temporal.workflow.getHandle(id).describe()).status.name;

  it('cancel at period end (the default), then resume: each with its event; no next charge while set', async () => {
    const { id } = await world.subscribe(world.storeA, world.basic.price.id);
    const before = await rowOf(id);

    const canceled = await cancel({ subscriptionId: id });
    expect(canceled.status).toBe(200);
    expect(canceled.body).toMatchObject({
      id,
      status: 'active',
      cancelAtPeriodEnd: true,
      currentPeriodEnd: before.nextBillingAt!.toISOString(),
      nextBillingAt: null,
    });
    expect(await rowOf(id)).toMatchObject({ cancelAtPeriodEnd: true, status: 'active' });
    const cancelled = await eventsOf(id, 's_subscription_cancelled');
    expect(cancelled.map((event) => event.properties)).toEqual([
      { subscriptionId: id, status: 'active', atPeriodEnd: true, cancelAt: before.nextBillingAt!.toISOString() },
    ]);

    const resumed = await resume(id);
    expect(resumed.status).toBe(200);
    expect(resumed.body).toMatchObject({
      id,
      status: 'active',
      cancelAtPeriodEnd: false,
      nextBillingAt: before.nextBillingAt!.toISOString(),
    });
    expect((await eventsOf(id, 's_subscription_resumed')).map((event) => event.properties)).toEqual([
      {
        subscriptionId: id,
        status: 'active',
        automatic: false,
        cancelWithdrawn: true,
        nextBillingAt: before.nextBillingAt!.toISOString(),
      },
    ]);

    const again = await resume(id);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'NO_SCHEDULED_CANCEL', message: expect.any(String) });
    expect(await workflowStatus(id)).toBe('RUNNING');
  });

  it(`${burst} identical cancels at period end at once: all answer 200, one state change, one event`, async () => {
    const { id } = await world.subscribe(world.storeA, world.basic.price.id);
    const answers = await all(() => cancel({ subscriptionId: id, atPeriodEnd: true }));
    expect(answers.map((answer) => answer.status)).toEqual(Array(burst).fill(200));
    for (const answer of answers) expect(answer.body).toMatchObject({ cancelAtPeriodEnd: true, status: 'active' });
    expect(await eventsOf(id, 's_subscription_cancelled')).toHaveLength(1);
    expect(await rowOf(id)).toMatchObject({ cancelAtPeriodEnd: true, status: 'active', canceledAt: null });
  });

  it(`${burst} identical cancels now at once: one 200 and ${burst - 1} 409s; one event; the workflow has ended`, async () => {
    const { id } = await world.subscribe(world.storeA, world.basic.price.id);
    const answers = await all(() => cancel({ subscriptionId: id, atPeriodEnd: false }));
    const done = answers.filter((answer) => answer.status === 200);
    expect(done).toHaveLength(1);
    expect(done[0]!.body).toMatchObject({ status: 'canceled', currentPeriodEnd: null, nextBillingAt: null });
    for (const answer of answers.filter((answer) => answer.status !== 200)) {
      expect(answer.status).toBe(409);
      expect(['INVALID_SUBSCRIPTION_TRANSITION', 'SUBSCRIPTION_NOT_RUNNING']).toContain(answer.body.code);
    }
    expect((await eventsOf(id, 's_subscription_cancelled')).map((event) => event.properties)).toEqual([
      { subscriptionId: id, status: 'canceled', atPeriodEnd: false, reason: 'requested' },
    ]);
    expect(await workflowStatus(id)).toBe('COMPLETED');

    // Canceled: cancel again and resume are 409, and change nothing.
    for (const answer of [await cancel({ subscriptionId: id }), await resume(id)]) {
      expect(answer.status).toBe(409);
      expect(answer.body.code).toBe('INVALID_SUBSCRIPTION_TRANSITION');
    }
    expect(await eventsOf(id, 's_subscription_cancelled')).toHaveLength(1);
  });

  it(`${burst} identical cancels now with one Idempotency-Key: every answer the first one, replayed`, async () => {
    const { id } = await world.subscribe(world.storeA, world.basic.price.id);
    const key = `cancel-${id}`;
    const answers = await all(() => cancel({ subscriptionId: id, atPeriodEnd: false }, { 'idempotency-key': key }));
    expect(answers.map((answer) => answer.status)).toEqual(Array(burst).fill(200));
    for (const answer of answers) expect(answer.body).toEqual(answers[0]!.body);
    expect(answers[0]!.body).toMatchObject({ id, status: 'canceled' });
    expect(answers.filter((answer) => answer.headers.get('idempotent-replayed') === 'true')).toHaveLength(burst - 1);
    expect(await eventsOf(id, 's_subscription_cancelled')).toHaveLength(1);

    const reused = await cancel({ subscriptionId: id, atPeriodEnd: true }, { 'idempotency-key': key });
    expect(reused.status).toBe(409);
    expect(reused.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });
});
