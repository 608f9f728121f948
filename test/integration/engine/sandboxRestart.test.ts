import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../../temporal/devServer';
import { acquirerJournalFile } from '../../../simulators/server';
import { crash, spawnRole, waitFor, type EngineProcess } from '../../helpers/engineProcess';

/**
 * `npm run sandbox` as its own process, killed with `kill -9` and started again on the same
 * DATA_DIR: the acquirer still knows every idempotency key it answered, as a real acquirer does.
 */
describe('npm run sandbox: the acquirer remembers across a kill -9', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-restart-'));
  const merchantId = `m_restart_${Date.now()}`;
  const year = new Date().getUTCFullYear() + 1;
  let port: string;
  let sandbox: EngineProcess | undefined;

  async function start(): Promise<void> {
    sandbox = spawnRole('sandbox', { SANDBOX_PORT: port, DATA_DIR: dataDir, LOG_LEVEL: 'info' });
    await waitFor('the sandbox to listen', () => sandbox!.messages().includes('sandbox listening'), sandbox);
  }

  async function post(
    route: string,
    key: string,
    body: Record<string, unknown>,
  ): Promise<{ status: number; body: any }> {
    const answer = await fetch(`http://127.0.0.1:${port}/acquirer/v1${route}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify({ merchantId, ...body }),
    });
    return { status: answer.status, body: await answer.json() };
  }

  const authorize = (key: string, card = '4242424242424242') =>
    post('/authorizations', key, {
      reference: `pay_${key}`,
      amount: 1999,
      currency: 'EUR',
      capture: false,
      card: { number: card, expMonth: 12, expYear: year },
    });

  async function ledger(query: Record<string, string> = {}): Promise<any[]> {
    const answer = await fetch(
      `http://127.0.0.1:${port}/acquirer/ledger?${new URLSearchParams({ merchantId, ...query }).toString()}`,
    );
    return ((await answer.json()) as { entries: any[] }).entries;
  }

  beforeAll(async () => {
    port = String(await freePort());
    await start();
  });
  afterAll(async () => {
    if (sandbox) await crash(sandbox);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers a key it approved before the restart with the same answer, ten times at once, and charges once', async () => {
    const approved = await authorize('K');
    expect(approved).toMatchObject({ status: 200, body: { status: 'approved', id: expect.stringMatching(/^acq_/) } });
    const captured = await post(`/authorizations/${approved.body.id}/capture`, 'C', { amount: 1500, currency: 'EUR' });
    expect(captured.body).toMatchObject({ status: 'succeeded' });
    // Reversed before it was ever sent: the key may never charge, also after a restart.
    expect(
      (await post('/reversals', 'R', { originalIdempotencyKey: 'late', amount: 1999, currency: 'EUR' })).body,
    ).toMatchObject({ reversed: false });
    const before = await ledger();

    await crash(sandbox!);
    expect(fs.readFileSync(acquirerJournalFile(dataDir), 'utf8').length).toBeGreaterThan(0);
    await start();

    const repeats = await Promise.all(Array.from({ length: 10 }, () => authorize('K')));
    for (const repeat of repeats) expect(repeat).toEqual(approved);
    expect(await ledger({ idempotencyKey: 'K' })).toHaveLength(1);
    expect(await post(`/authorizations/${approved.body.id}/capture`, 'C', { amount: 1500, currency: 'EUR' })).toEqual(
      captured,
    );
    // The transaction came back as it stood: captured, so a new capture key is refused.
    expect(
      (await post(`/authorizations/${approved.body.id}/capture`, 'C2', { amount: 1500, currency: 'EUR' })).body,
    ).toMatchObject({ status: 'failed', code: 'already_captured' });
    expect((await authorize('late')).body).toMatchObject({ status: 'declined', code: 'authorization_reversed' });
    const after = await ledger();
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after.filter((entry) => entry.operation === 'authorize' && entry.outcome === 'approved')).toHaveLength(1);
  });

  it('the same key with a different request is still refused after a restart', async () => {
    await crash(sandbox!);
    await start();
    const other = await post('/authorizations', 'K', {
      reference: 'pay_other',
      amount: 5,
      currency: 'EUR',
      capture: false,
      card: { number: '4242424242424242', expMonth: 12, expYear: year },
    });
    expect(other).toMatchObject({ status: 409, body: { code: 'idempotency_conflict' } });
  });
});
