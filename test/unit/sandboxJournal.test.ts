import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AcquirerJournal } from '../../simulators/acquirer/journal';
import { AcquirerState } from '../../simulators/acquirer/state';
import { acquirerJournalFile, startSandbox, type RunningSandbox } from '../../simulators/server';

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

describe('the sandbox acquirer journal keeps no card number', () => {
  const year = new Date().getUTCFullYear() + 1;
  const approveCard = '4242424242424242';
  const disputeCard = '4000000000000259';
  let dataDir: string;
  let sandbox: RunningSandbox | undefined;
  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'journal-pan-'));
  });
  afterEach(async () => {
    await sandbox?.stop();
    sandbox = undefined;
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function restart(): Promise<void> {
    await sandbox?.stop();
    sandbox = await startSandbox(0, '127.0.0.1', { dataDir });
  }
  async function post(route: string, key: string, body: Record<string, unknown>) {
    const answer = await fetch(`${sandbox!.url}/acquirer/v1${route}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify({ merchantId: 'm_pan', ...body }),
    });
    return { status: answer.status, body: (await answer.json()) as any };
  }
  const authorize = (key: string, card: string, amount = 1999) =>
    post('/authorizations', key, {
      reference: `pay_${key}`,
      amount,
      currency: 'EUR',
      capture: false,
      card: { number: card, expMonth: 12, expYear: year },
    });
  const mode = (file: string) => fs.statSync(file).mode & 0o777;

  it('journals a keyed fingerprint and the last four digits only, in files of the engine user only', async () => {
    await restart();
    const approved = await authorize('K1', approveCard);
    const disputed = await authorize('K2', disputeCard);
    expect(approved.body.status).toBe('approved');

    const file = acquirerJournalFile(dataDir);
    const text = fs.readFileSync(file, 'utf8');
    expect(text).not.toContain(approveCard);
    expect(text).not.toContain(disputeCard);
    expect(text).not.toMatch(/"(cardNumber|number)"/);
    const transactions = text
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line))
      .filter((record) => record.kind === 'transaction')
      .map((record) => record.transaction);
    expect(transactions).toContainEqual(
      expect.objectContaining({
        cardLast4: '4242',
        cardFingerprint: expect.stringMatching(/^hmac-sha256:[0-9a-f]{64}$/),
      }),
    );
    expect(mode(file)).toBe(0o600);
    expect(mode(path.dirname(file))).toBe(0o700);
    expect(mode(path.join(path.dirname(file), 'journal.key'))).toBe(0o600);

    // After a restart the same request is the same request (its fingerprint is stable), another is not,
    // and the dispute card still opens its dispute on capture.
    await restart();
    expect(await authorize('K1', approveCard)).toEqual(approved);
    expect((await authorize('K1', approveCard, 2000)).status).toBe(409);
    const capture = await post(`/authorizations/${disputed.body.id}/capture`, 'C2', { amount: 1999, currency: 'EUR' });
    expect(capture.body).toMatchObject({ status: 'succeeded', disputeOpened: { reason: 'fraudulent', amount: 1999 } });
  });

  it('rewrites a journal written with card numbers, keeping what it remembers', async () => {
    const file = acquirerJournalFile(dataDir);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const body = {
      merchantId: 'm_pan',
      reference: 'pay_OLD',
      amount: 1999,
      currency: 'EUR',
      capture: false,
      card: { number: disputeCard, expMonth: 12, expYear: year },
    };
    const answer = { status: 200, body: { id: 'acq_old', status: 'approved', captured: false } };
    const transaction = {
      id: 'acq_old',
      merchantId: 'm_pan',
      idempotencyKey: 'OLD',
      reference: 'pay_OLD',
      currency: 'EUR',
      cardNumber: disputeCard,
      authorizedAmount: 1999,
      capturedAmount: 0,
      refundedAmount: 0,
      status: 'authorized',
    };
    const legacy = [
      { kind: 'transaction', transaction },
      {
        kind: 'answer',
        scope: 'm_pan\u0000OLD',
        fingerprint: `/v1/authorizations\u0000${JSON.stringify(body)}`,
        answer,
      },
    ];
    fs.writeFileSync(file, legacy.map((record) => `${JSON.stringify(record)}\n`).join(''), { mode: 0o644 });

    await restart();
    const text = fs.readFileSync(file, 'utf8');
    expect(text).not.toContain(disputeCard);
    expect(text).toContain('"cardLast4":"0259"');
    expect(mode(file)).toBe(0o600);
    const replayed = await fetch(`${sandbox!.url}/acquirer/v1/authorizations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': 'OLD' },
      body: JSON.stringify(body),
    });
    expect(await replayed.json()).toEqual(answer.body);
    const capture = await post('/authorizations/acq_old/capture', 'C', { amount: 1999, currency: 'EUR' });
    expect(capture.body).toMatchObject({ disputeOpened: { reason: 'fraudulent' } });
  });
});
