import { addCrmKey } from '../../helpers/fixtures';
import { call } from '../../helpers/harness';
import { useTenants } from '../../helpers/fixtures/shop';
import { useHarness } from '../../helpers/useHarness';
import { api, ok } from '../commerce/commerceHelpers';

describe('payment flows over HTTP', () => {
  const harness = useHarness();
  const t = useTenants(harness);
  let memberToken: string;
  let procA: string;
  let procB: string;
  let foreignProc: string;
  beforeAll(async () => {
    memberToken = await addCrmKey(harness.db, t.merchant, { role: 'org:member' });
    const processor = async (token: string, name: string) =>
      (
        await ok(harness, 'POST', '/processors', token, {
          name,
          type: 'sandbox',
          credentials: { merchantId: name },
          supportedCurrencies: ['EUR'],
          baseCurrency: 'EUR',
        })
      ).id as string;
    procA = await processor(t.merchant.token, 'A');
    procB = await processor(t.merchant.token, 'B');
    foreignProc = await processor(t.other.token, 'Foreign');
  });

  const flowBody = () => ({
    name: 'EU cascade',
    strategy: 'cascade',
    threeDsEnabled: true,
    stickyProcessorEnabled: true,
    pickProcessorStrategy: 'weighted',
    fallbackMode: true,
    maxFallbackRetries: 2,
    processorConfigs: [
      { processorId: procA, weight: 80 },
      { processorId: procB, weight: 20, disabled: false, nonStickable: true },
    ],
    fallbackProcessorConfigs: [{ processorId: procB, orderIndex: 0 }],
  });
  const create = (body: unknown, token = t.merchant.token) =>
    call(harness, 'POST', `${api}/payment-flows`, { token, body });
  const update = (body: unknown, token = t.merchant.token) =>
    call(harness, 'POST', `${api}/payment-flows/update`, { token, body });

  it('creates, lists, gets and updates a flow with every part-2 field', async () => {
    const created = await create(flowBody());
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      name: 'EU cascade',
      strategy: 'cascade',
      threeDsEnabled: true,
      stickyProcessorEnabled: true,
      pickProcessorStrategy: 'weighted',
      fallbackMode: true,
      maxFallbackRetries: 2,
      processorConfigs: [
        { processorId: procA, weight: 80, disabled: false, nonStickable: false },
        { processorId: procB, weight: 20, disabled: false, nonStickable: true },
      ],
      fallbackProcessorConfigs: [{ processorId: procB, orderIndex: 0 }],
      mode: 'test',
    });
    const id = created.body.id as string;
    expect(id).toMatch(/^flow_/);

    const list = await ok(harness, 'GET', '/payment-flows', t.merchant.token);
    expect(Array.isArray(list)).toBe(true);
    expect(list.find((f: { id: string }) => f.id === id)).toEqual(created.body);
    expect(await ok(harness, 'GET', `/payment-flows/${id}`, t.merchant.token)).toEqual(created.body);

    const updated = await update({
      flowId: id,
      data: {
        strategy: 'single',
        threeDsEnabled: false,
        maxFallbackRetries: 0,
        fallbackProcessorConfigs: [
          { processorId: procA, orderIndex: 1 },
          { processorId: procB, orderIndex: 0 },
        ],
      },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      id,
      strategy: 'single',
      threeDsEnabled: false,
      maxFallbackRetries: 0,
      name: 'EU cascade',
      processorConfigs: created.body.processorConfigs,
    });
    expect(updated.body.fallbackProcessorConfigs).toEqual([
      { processorId: procA, orderIndex: 1 },
      { processorId: procB, orderIndex: 0 },
    ]);
  });

  it('applies defaults when only name and processors are given', async () => {
    const created = await create({ name: 'Minimal', processorConfigs: [{ processorId: procA, weight: 1 }] });
    expect(created.body).toMatchObject({
      strategy: 'cascade',
      threeDsEnabled: false,
      stickyProcessorEnabled: false,
      pickProcessorStrategy: 'weighted',
      fallbackMode: true,
      maxFallbackRetries: 2,
      fallbackProcessorConfigs: [],
    });
  });

  it('requires fallbackProcessorConfigs in update data (400), and leaves the flow as it was', async () => {
    const { body } = await create(flowBody());
    const answer = await update({ flowId: body.id, data: { name: 'No fallbacks' } });
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body.issues)).toContain('fallbackProcessorConfigs');
    expect((await ok(harness, 'GET', `/payment-flows/${body.id}`, t.merchant.token)).name).toBe('EU cascade');
    expect((await update({ flowId: body.id, data: { fallbackProcessorConfigs: [] } })).status).toBe(200);
  });

  it.each<[string, (b: ReturnType<typeof flowBody>) => unknown]>([
    [
      'negative weight',
      (b) => ({ ...b, processorConfigs: [{ processorId: b.processorConfigs[0]!.processorId, weight: -1 }] }),
    ],
    [
      'fractional weight',
      (b) => ({ ...b, processorConfigs: [{ processorId: b.processorConfigs[0]!.processorId, weight: 1.5 }] }),
    ],
    ['maxFallbackRetries 11', (b) => ({ ...b, maxFallbackRetries: 11 })],
    ['maxFallbackRetries -1', (b) => ({ ...b, maxFallbackRetries: -1 })],
    ['unknown strategy', (b) => ({ ...b, strategy: 'round_robin' })],
    ['unknown pick strategy', (b) => ({ ...b, pickProcessorStrategy: 'random' })],
    [
      'duplicate processor in processorConfigs',
      (b) => ({ ...b, processorConfigs: [b.processorConfigs[0], b.processorConfigs[0]] }),
    ],
    [
      'duplicate orderIndex',
      (b) => ({
        ...b,
        fallbackProcessorConfigs: [
          { processorId: b.processorConfigs[0]!.processorId, orderIndex: 0 },
          { processorId: b.processorConfigs[1]!.processorId, orderIndex: 0 },
        ],
      }),
    ],
    ['malformed processor id', (b) => ({ ...b, processorConfigs: [{ processorId: 'nope', weight: 1 }] })],
    ['empty name', (b) => ({ ...b, name: '' })],
    ['unknown field', (b) => ({ ...b, color: 'red' })],
  ])('rejects %s with 400', async (_name, mutate) => {
    const answer = await create(mutate(flowBody()));
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('VALIDATION_ERROR');
  });

  it('accepts maxFallbackRetries at both bounds (0 and 10)', async () => {
    expect((await create({ ...flowBody(), maxFallbackRetries: 0 })).status).toBe(200);
    expect((await create({ ...flowBody(), maxFallbackRetries: 10 })).status).toBe(200);
  });

  it("rejects processors that are not the account's (other account, unknown id) with 400", async () => {
    const foreign = await create({ ...flowBody(), processorConfigs: [{ processorId: foreignProc, weight: 1 }] });
    expect(foreign.status).toBe(400);
    expect(foreign.body).toMatchObject({ code: 'UNKNOWN_PROCESSOR' });
    expect(foreign.body.message).toContain(foreignProc);
    expect(foreign.body.issues).toEqual([{ message: `processor ${foreignProc} does not exist in this account` }]);
    const { body } = await create(flowBody());
    const missing = await update({
      flowId: body.id,
      data: { fallbackProcessorConfigs: [{ processorId: 'proc_doesnotexist', orderIndex: 0 }] },
    });
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe('UNKNOWN_PROCESSOR');
    const none = await create({ name: 'Empty', processorConfigs: [] });
    expect(none.status).toBe(400);
  });

  it('answers 403 to member keys on create and update, but lets them read', async () => {
    const { body } = await create(flowBody());
    expect((await create(flowBody(), memberToken)).status).toBe(403);
    expect((await update({ flowId: body.id, data: { fallbackProcessorConfigs: [] } }, memberToken)).status).toBe(403);
    expect((await call(harness, 'GET', `${api}/payment-flows/${body.id}`, { token: memberToken })).status).toBe(200);
  });

  it("answers 404 for another account's or mode's flow and hides it from lists", async () => {
    const { body } = await create(flowBody());
    for (const token of [t.other.token, t.liveToken]) {
      expect((await call(harness, 'GET', `${api}/payment-flows/${body.id}`, { token })).status).toBe(404);
      expect((await update({ flowId: body.id, data: { fallbackProcessorConfigs: [] } }, token)).status).toBe(404);
      const list = await ok(harness, 'GET', '/payment-flows', token);
      expect(list.map((f: { id: string }) => f.id)).not.toContain(body.id);
    }
  });
});
