import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AcquirerJournal } from '../../src/sandbox/acquirer/journal';
import { AcquirerState } from '../../src/sandbox/acquirer/state';

describe('the sandbox acquirer journal', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'journal-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('skips a line torn by a crash mid-write: that operation never answered, so its key is free', async () => {
    const journal = new AcquirerJournal(path.join(dir, 'torn', 'acquirer.jsonl'));
    const state = new AcquirerState(journal);
    await state.answerOnce('m', 'K1', 'f', async (book) => {
      book.record({
        merchantId: 'm',
        idempotencyKey: 'K1',
        operation: 'authorize',
        outcome: 'declined',
        code: 'card_declined',
        amount: 1,
        currency: 'EUR',
        reference: 'r',
        transactionId: null,
        cardLast4: null,
        threeDs: null,
        disputeOpened: null,
      });
      return { status: 200, body: { status: 'declined' } };
    });
    fs.appendFileSync(journal.file, '{"kind":"answer","scope":"m\\u0000K2","fingerpr');

    const restored = new AcquirerState(new AcquirerJournal(journal.file));
    expect(restored.ledger.map((entry) => entry.idempotencyKey)).toEqual(['K1']);
    expect(await restored.answerOnce('m', 'K1', 'f', async () => ({ status: 500, body: 'must not run' }))).toEqual({
      status: 200,
      body: { status: 'declined' },
    });
    expect(await restored.answerOnce('m', 'K2', 'f', async () => ({ status: 200, body: 'ran' }))).toEqual({
      status: 200,
      body: 'ran',
    });
  });

  it('writes nothing for an operation still running: its changes go out with its answer', async () => {
    const journal = new AcquirerJournal(path.join(dir, 'held', 'acquirer.jsonl'));
    const state = new AcquirerState(journal);
    let finish!: () => void;
    const held = state.answerOnce('m', 'K', 'f', async (book) => {
      book.markReversed('m', 'other');
      await new Promise<void>((resolve) => (finish = resolve));
      return { status: 200, body: {} };
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(journal.read()).toEqual([]);
    finish();
    await held;
    expect(journal.read().map((record) => record.kind)).toEqual(['reversed', 'answer']);
  });
});
