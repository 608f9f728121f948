import { MemoryStore } from 'express-rate-limit';
import { memoryLimitDefaults, parseConfig } from '../../src/config';
import type { Db } from '../../src/db/prisma';
import { RecentList } from '../../src/domain/recentList';
import { recordedEventShapeViolations, recordEvent, takeEventShapeViolations } from '../../src/events/recordEvent';
import { LastUsedRecorder } from '../../src/keys/lastUsed';
import { createLogger } from '../../src/logging/logger';
import { AcquirerState } from '../../simulators/acquirer/state';
import { startSandbox } from '../../simulators/server';
import { ThreeDsServerState } from '../../simulators/threeds/state';
import { workerConcurrency } from '../../temporal/worker';
import { until } from '../helpers/until';

/** Every in-process structure that grows with traffic keeps at most its configured number of entries. */
describe('memory bounds', () => {
  it('configuration carries each bound, with its default, and refuses a bad one', () => {
    const cfg = parseConfig({});
    for (const [name, value] of Object.entries(memoryLimitDefaults)) expect(cfg[name as keyof typeof cfg]).toBe(value);
    // The in-flight runs at this machine's ceiling, no more (docs/operations.md, "Workflow cache: 100").
    expect(cfg.TEMPORAL_MAX_CACHED_WORKFLOWS).toBe(100);
    expect(workerConcurrency(cfg.TEMPORAL_MAX_CACHED_WORKFLOWS).maxConcurrentWorkflowTaskExecutions).toBe(100);
    expect(parseConfig({ SANDBOX_ACQUIRER_MAX_ENTRIES: '500' }).SANDBOX_ACQUIRER_MAX_ENTRIES).toBe(500);
    expect(() => parseConfig({ SANDBOX_ACQUIRER_MAX_ENTRIES: '0' })).toThrow(/SANDBOX_ACQUIRER_MAX_ENTRIES/);
    expect(() => parseConfig({ TEMPORAL_MAX_CACHED_WORKFLOWS: '1' })).toThrow(/TEMPORAL_MAX_CACHED_WORKFLOWS/);
    expect(parseConfig({ TEMPORAL_MAX_CACHED_WORKFLOWS: '0' }).TEMPORAL_MAX_CACHED_WORKFLOWS).toBe(0);
  });

  it('the sandbox acquirer keeps the newest ledger entries, answers, transactions and reversals only', async () => {
    const max = 5;
    const state = new AcquirerState(undefined, max);
    for (let i = 0; i < 12; i++) {
      await state.answerOnce('m', `K${i}`, 'f', async (book) => {
        book.addTransaction({
          id: `tx_${i}`,
          merchantId: 'm',
          idempotencyKey: `K${i}`,
          reference: `pay_${i}`,
          currency: 'EUR',
          cardFingerprint: 'hmac-sha256:00',
          cardLast4: '4242',
          authorizedAmount: 100,
          capturedAmount: 0,
          refundedAmount: 0,
          status: 'authorized',
        });
        book.markReversed('m', `K${i}`);
        book.record({
          merchantId: 'm',
          idempotencyKey: `K${i}`,
          operation: 'authorize',
          outcome: 'approved',
          code: null,
          amount: 100,
          currency: 'EUR',
          reference: `pay_${i}`,
          transactionId: `tx_${i}`,
          cardLast4: '4242',
          threeDs: null,
          disputeOpened: null,
        });
        return { status: 200, body: { n: i } };
      });
    }
    expect(state.ledger.map((entry) => entry.idempotencyKey)).toEqual(['K7', 'K8', 'K9', 'K10', 'K11']);
    expect([...state.transactions.keys()]).toEqual(['tx_7', 'tx_8', 'tx_9', 'tx_10', 'tx_11']);
    expect(state.transactionByKey('m', 'K11')?.id).toBe('tx_11');
    expect(state.transactionByKey('m', 'K6')).toBeUndefined();
    expect(state.isReversed('m', 'K7')).toBe(true);
    expect(state.isReversed('m', 'K6')).toBe(false);
    // The newest answer is still replayed; an evicted key runs again.
    expect(await state.answerOnce('m', 'K11', 'f', async () => ({ status: 500, body: 'ran again' }))).toEqual({
      status: 200,
      body: { n: 11 },
    });
    expect(await state.answerOnce('m', 'K0', 'f', async () => ({ status: 200, body: 'ran again' }))).toEqual({
      status: 200,
      body: 'ran again',
    });
  });

  it('the sandbox 3DS server keeps the newest transactions only, in every index', () => {
    const state = new ThreeDsServerState(3);
    const made = Array.from({ length: 7 }, (_, i) =>
      state.create({
        reference: `pay_${i}`,
        messageVersion: '2.2.0',
        cardBrand: 'visa',
        deviceChannel: 'browser',
        transStatus: 'Y',
        eci: '05',
        authenticationValue: null,
        notificationUrl: null,
        amount: 100,
        currency: 'EUR',
      }),
    );
    const kept = made.filter((transaction) => state.findByServerId(transaction.threeDSServerTransID));
    expect(kept.map((transaction) => transaction.reference)).toEqual(['pay_4', 'pay_5', 'pay_6']);
    expect(state.findByReference('pay_3')).toBeUndefined();
    expect(state.findByAcsId(made[3]!.acsTransID)).toBeUndefined();
    expect(state.findByAcsId(made[6]!.acsTransID)?.reference).toBe('pay_6');
  });

  it('the sandbox webhook inbox keeps the newest deliveries of all inboxes only', async () => {
    const sandbox = await startSandbox(0, '127.0.0.1', { limits: { SANDBOX_INBOX_MAX_DELIVERIES: 10 } });
    try {
      for (let i = 0; i < 14; i++) {
        const sent = await fetch(`${sandbox.url}/inbox/${i % 2 ? 'odd' : 'even'}`, { method: 'POST', body: `d${i}` });
        expect(sent.status).toBe(200);
      }
      const bodies = async (inbox: string) =>
        ((await (await fetch(`${sandbox.url}/inbox/${inbox}`)).json()) as { data: { body: string }[] }).data.map(
          (delivery) => delivery.body,
        );
      expect(await bodies('even')).toEqual(['d12', 'd10', 'd8', 'd6', 'd4']);
      expect(await bodies('odd')).toEqual(['d13', 'd11', 'd9', 'd7', 'd5']);
    } finally {
      await sandbox.stop();
    }
  });

  it('the sandbox outbox keeps the newest messages only', async () => {
    const sandbox = await startSandbox(0, '127.0.0.1', { limits: { SANDBOX_OUTBOX_MAX_MESSAGES: 10 } });
    try {
      for (let i = 0; i < 14; i++) {
        const sent = await fetch(`${sandbox.url}/outbox/messages`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ to: 'a@example.com', subject: `m${i}`, text: 'x' }),
        });
        expect(sent.status).toBe(201);
      }
      const { data } = (await (await fetch(`${sandbox.url}/outbox/messages`)).json()) as {
        data: { subject: string }[];
      };
      expect(data.map((message) => message.subject)).toEqual(
        ['m4', 'm5', 'm6', 'm7', 'm8', 'm9', 'm10', 'm11', 'm12', 'm13'].reverse(),
      );
    } finally {
      await sandbox.stop();
    }
  });

  it('the lastUsedAt recorder flushes as soon as it holds its maximum of distinct keys', async () => {
    const batches: string[][] = [];
    const db = {
      $executeRaw: async (_strings: TemplateStringsArray, ids: string[]) => {
        batches.push(ids);
        return ids.length;
      },
    } as unknown as Db;
    const recorder = new LastUsedRecorder(db, createLogger('silent'), 60_000, 4);
    for (let i = 0; i < 10; i++) {
      recorder.touch(`key_${i}`);
      expect(recorder.pendingKeys).toBeLessThan(4);
    }
    await new Promise((resolve) => setImmediate(resolve));
    expect(batches).toEqual([
      ['key_0', 'key_1', 'key_2', 'key_3'],
      ['key_4', 'key_5', 'key_6', 'key_7'],
    ]);
    expect(recorder.pendingKeys).toBe(2);
    await recorder.flush();
    expect(batches[2]).toEqual(['key_8', 'key_9']);
  });

  it('a recent list keeps its newest items; lowering the limit drops the oldest at once', () => {
    const list = new RecentList<number>(3);
    for (let i = 0; i < 8; i++) list.push(i);
    expect(list.size).toBe(3);
    list.setLimit(2);
    expect(list.take()).toEqual([6, 7]);
    expect(list.size).toBe(0);
  });

  it('event shape violations nobody takes stay within their limit', async () => {
    const db = { event: { create: async () => ({}) } } as unknown as Db;
    recordedEventShapeViolations.setLimit(3);
    try {
      for (let i = 0; i < 6; i++)
        await recordEvent(db, { accountId: 'acc', mode: 'test', eventType: 's_payment_succeeded', properties: { i } });
      const kept = takeEventShapeViolations();
      expect(kept).toHaveLength(3);
      expect(kept.every((violation) => violation.eventType === 's_payment_succeeded')).toBe(true);
    } finally {
      recordedEventShapeViolations.setLimit(memoryLimitDefaults.RECORDED_VIOLATIONS_MAX);
    }
  });

  it('the in-process rate-limit store forgets an account two windows after its last request', async () => {
    const store = new MemoryStore();
    store.init({ windowMs: 40 } as Parameters<MemoryStore['init']>[0]);
    try {
      for (let i = 0; i < 50; i++) await store.increment(`acc:${i}`);
      const held = store as unknown as { previous: Map<string, unknown>; current: Map<string, unknown> };
      expect(held.previous.size + held.current.size).toBe(50);
      // Waited for, not slept on: on a loaded machine the 40 ms rotations run late.
      await until(() => (held.previous.size + held.current.size === 0 ? true : undefined), 5_000).catch(
        () => undefined,
      );
      expect(held.previous.size + held.current.size).toBe(0);
      expect(await store.get('acc:0')).toBeUndefined();
    } finally {
      store.shutdown();
    }
  });

  it('the worker caches the configured number of workflows, and never runs more workflow tasks than it caches', () => {
    expect(workerConcurrency(250)).toEqual({
      maxCachedWorkflows: 250,
      maxConcurrentWorkflowTaskExecutions: 200,
      maxConcurrentActivityTaskExecutions: 200,
    });
    expect(workerConcurrency(50).maxConcurrentWorkflowTaskExecutions).toBe(50);
    expect(workerConcurrency(0).maxConcurrentWorkflowTaskExecutions).toBe(200);
  });
});
