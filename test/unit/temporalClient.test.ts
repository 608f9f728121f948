import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { defineUpdate } from '@temporalio/workflow';
import { searchAttributesFor, startAndAwait, type WorkflowStart } from '../../temporal/client';
import { searchAttributes } from '../../temporal/searchAttributes';

const answerUpdate = defineUpdate<string, [{ waitMs: number }]>('answer');
const start: WorkflowStart = {
  type: 'someWorkflow',
  workflowId: 'wf_1',
  taskQueue: 'q',
  args: [{ x: 1 }],
  searchAttributes: searchAttributesFor({ accountId: 'acc_1' }),
};
const alreadyStarted = () => new WorkflowExecutionAlreadyStartedError('closed', 'wf_1', 'someWorkflow');
const never = () => new Promise<never>(() => undefined);

/** A Temporal client whose update-with-start, start and result answer as a test says. */
function fakeClient(behaviour: {
  update?: () => Promise<string>;
  start?: () => Promise<unknown>;
  result?: () => Promise<string>;
}) {
  const calls = { updates: [] as any[], starts: [] as any[], handles: [] as string[] };
  const result = behaviour.result ?? never;
  const client = {
    workflow: {
      executeUpdateWithStart: (update: unknown, options: any) => {
        calls.updates.push({ update, args: options.args, operation: options.startWorkflowOperation });
        return (behaviour.update ?? never)();
      },
      start: async (type: string, options: unknown) => {
        calls.starts.push({ type, options });
        await behaviour.start?.();
        return { result };
      },
      getHandle: (workflowId: string) => {
        calls.handles.push(workflowId);
        return { result };
      },
    },
  } as unknown as Client;
  return { client, calls };
}

describe('startAndAwait: start or join a workflow, wait for its answer with a deadline', () => {
  it('update-with-start: joins a running run under the id, sends the update, answers its result', async () => {
    const { client, calls } = fakeClient({ update: async () => 'done' });
    const answer = await startAndAwait(client, {
      start: { ...start, workflowIdReusePolicy: 'REJECT_DUPLICATE' },
      answer: { update: answerUpdate, args: [{ waitMs: 5 }] },
      deadlineMs: 1_000,
      onDeadline: () => 'late',
    });
    expect(answer).toBe('done');
    expect(calls.updates[0].update).toBe(answerUpdate);
    expect(calls.updates[0].args).toEqual([{ waitMs: 5 }]);
    expect(calls.updates[0].operation.workflowTypeOrFunc).toBe('someWorkflow');
    expect(calls.updates[0].operation.options).toEqual({
      workflowId: 'wf_1',
      taskQueue: 'q',
      args: [{ x: 1 }],
      workflowIdConflictPolicy: 'USE_EXISTING',
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      typedSearchAttributes: [{ key: searchAttributes.AccountId, value: 'acc_1' }],
    });
  });

  it('answers onDeadline when the deadline passes first, and ignores a late failure', async () => {
    let fail: (error: Error) => void = () => undefined;
    const late = new Promise<string>((_resolve, reject) => (fail = reject));
    const { client } = fakeClient({ update: () => late });
    const startedAt = Date.now();
    await expect(
      startAndAwait(client, {
        start,
        answer: { update: answerUpdate, args: [{ waitMs: 5 }] },
        deadlineMs: 50,
        onDeadline: () => 'processing',
      }),
    ).resolves.toBe('processing');
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(45);
    fail(new Error('the update failed after the caller was answered'));
    await new Promise((resolve) => setImmediate(resolve));
  });

  it('update-with-start on a closed run (REJECT_DUPLICATE) answers whenClosed; without it the error goes up', async () => {
    const { client } = fakeClient({ update: () => Promise.reject(alreadyStarted()) });
    const options = {
      start,
      answer: { update: answerUpdate, args: [{ waitMs: 5 }] as [{ waitMs: number }] },
      deadlineMs: 1_000,
      onDeadline: () => 'late',
    };
    await expect(startAndAwait(client, { ...options, whenClosed: async () => 'from its row' })).resolves.toBe(
      'from its row',
    );
    await expect(startAndAwait(client, options)).rejects.toBeInstanceOf(WorkflowExecutionAlreadyStartedError);
  });

  it('passes on any other failure of the update', async () => {
    const { client } = fakeClient({ update: () => Promise.reject(new Error('update refused')) });
    await expect(
      startAndAwait(client, {
        start,
        answer: { update: answerUpdate, args: [{ waitMs: 5 }] },
        deadlineMs: 1_000,
        onDeadline: () => 'late',
        whenClosed: async () => 'no',
      }),
    ).rejects.toThrow('update refused');
  });

  it("result: starts (no reuse policy unless given) and answers the run's result, or onDeadline", async () => {
    const done = fakeClient({ result: async () => 'refunded' });
    await expect(
      startAndAwait<string, 'pending'>(done.client, {
        start,
        answer: { result: true },
        deadlineMs: 1_000,
        onDeadline: () => 'pending',
      }),
    ).resolves.toBe('refunded');
    expect(done.calls.starts[0]).toEqual({
      type: 'someWorkflow',
      options: expect.not.objectContaining({ workflowIdReusePolicy: expect.anything() }),
    });
    expect(done.calls.starts[0].options).toMatchObject({
      workflowId: 'wf_1',
      workflowIdConflictPolicy: 'USE_EXISTING',
    });

    const slow = fakeClient({});
    await expect(
      startAndAwait<string, 'pending'>(slow.client, {
        start,
        answer: { result: true },
        deadlineMs: 30,
        onDeadline: () => 'pending',
      }),
    ).resolves.toBe('pending');
  });

  it('result: a run under the id that closed already answers its own result', async () => {
    const { client, calls } = fakeClient({
      start: () => Promise.reject(alreadyStarted()),
      result: async () => 'the first answer',
    });
    await expect(
      startAndAwait<string, 'pending'>(client, {
        start,
        answer: { result: true },
        deadlineMs: 1_000,
        onDeadline: () => 'pending',
      }),
    ).resolves.toBe('the first answer');
    expect(calls.handles).toEqual(['wf_1']);
  });
});

describe('searchAttributesFor', () => {
  it('sets the ids it is given, and leaves out those that are null or missing', () => {
    expect(
      searchAttributesFor({ accountId: 'acc_1', storeId: null, customerId: 'cus_1', paymentStatus: 'processing' }),
    ).toEqual([
      { key: searchAttributes.AccountId, value: 'acc_1' },
      { key: searchAttributes.CustomerId, value: 'cus_1' },
      { key: searchAttributes.PaymentStatus, value: 'processing' },
    ]);
    expect(searchAttributesFor({ accountId: 'acc_1', storeId: 'store_1', eventId: 'evt_1' })).toEqual([
      { key: searchAttributes.AccountId, value: 'acc_1' },
      { key: searchAttributes.StoreId, value: 'store_1' },
      { key: searchAttributes.EventId, value: 'evt_1' },
    ]);
  });
});
