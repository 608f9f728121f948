import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { Client } from '@temporalio/client';
import { createPrismaClient, type Db } from '../../src/db/prisma';
import { createTemporalClient } from '../../temporal/connection';
import {
  freeEnginePorts,
  healthStatus,
  spawnEngine,
  waitFor,
  type EngineProcess,
  type EnginePorts,
} from '../helpers/engineProcess';
import { createBenchTenant } from '../bench/setup';
import { until } from '../helpers/until';
import { launchChromium } from './chromium';
import { saveScreenshot, TemporalWorkflowList } from './temporalUiControls';

/** The sandbox acquirer's hard decline (docs/processors.md); the bench tenant's own card approves. */
const decliningCard = '4000000000000002';

interface Payments {
  storeId: string;
  customerId: string;
  succeeded: string;
  declined: string;
}

/** A merchant (the benchmark's: sandbox processor, store, customer, approving card) pays once with each card. */
async function payTwice(db: Db, apiUrl: string): Promise<Payments> {
  const tenant = await createBenchTenant(db, apiUrl);
  const post = async (route: string, body: unknown): Promise<any> => {
    const answer = await fetch(`${apiUrl}/api/public/v1${route}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tenant.merchant.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return answer.json();
  };
  const declining = await post('/payment-instruments', {
    customerId: tenant.customerId,
    card: { number: decliningCard, expMonth: 12, expYear: new Date().getUTCFullYear() + 2, cvc: '123' },
  });
  const pay = (paymentInstrumentId: string) =>
    post('/payments/process', {
      storeId: tenant.storeId,
      customerId: tenant.customerId,
      paymentInstrumentId,
      amount: 990,
      currency: 'EUR',
    });
  const succeeded = await pay(tenant.instrumentId);
  const declined = await pay(declining.id);
  if (succeeded.payment?.status !== 'succeeded' || declined.data?.status !== 'failed')
    throw new Error(`unexpected payment answers: ${JSON.stringify([succeeded, declined])}`);
  return {
    storeId: tenant.storeId,
    customerId: tenant.customerId,
    succeeded: succeeded.payment.id,
    declined: declined.data.paymentId,
  };
}

/**
 * `npm start` (its own ports and DATA_DIR), one succeeded and one declined payment through the
 * public API, then the Temporal UI the dev server serves, in headless Chromium: an operator finds
 * the declined payment by id, status, store and customer with the UI's own controls. The
 * screenshots in docs/operations.md come from this test.
 */
describe('finding a payment in the Temporal UI (npm start, headless Chromium)', () => {
  let runDir: string;
  let ports: EnginePorts;
  let engine: EngineProcess;
  let temporal: Client | undefined;
  let browser: Browser | undefined;
  let page: Page;
  let list: TemporalWorkflowList;
  let payments: Payments;

  beforeAll(async () => {
    browser = await launchChromium();
    runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'payment-engine-ui-'));
    // As root Postgres runs as the `postgres` user, which must be able to enter the folder.
    fs.chmodSync(runDir, 0o755);
    // A free port can be taken before the engine listens on it (the dev server opens ports of its
    // own, and other engines run on this machine): start again on other ports, as a person would.
    for (let attempt = 1; ; attempt++) {
      ports = await freeEnginePorts();
      engine = spawnEngine({ ...ports, DATA_DIR: path.join(runDir, `data-${attempt}`), LOG_LEVEL: 'warn' });
      const healthy = waitFor('health 200', async () => (await healthStatus(ports.PORT)) === 200, engine, 180_000);
      const started = await healthy.then(
        () => true,
        (error: Error) => {
          if (attempt < 3 && error.message.includes('EADDRINUSE')) return false;
          throw error;
        },
      );
      if (started) break;
      await engine.exited;
    }
    const apiUrl = `http://127.0.0.1:${ports.PORT}`;
    const db = createPrismaClient(`postgresql://postgres:postgres@127.0.0.1:${ports.EMBEDDED_POSTGRES_PORT}/payments`);
    try {
      payments = await payTwice(db, apiUrl);
    } finally {
      await db.$disconnect();
    }
    // The API answers with the outcome before the run closes (it still dispatches events); wait for
    // both runs to close and reach the server's visibility store, which is what the UI lists from.
    temporal = await createTemporalClient({
      address: `127.0.0.1:${ports.TEMPORAL_DEV_SERVER_PORT}`,
      namespace: 'default',
    });
    const closed = `WorkflowType = "paymentWorkflow" AND ExecutionStatus = "Completed"`;
    await until(async () => ((await temporal!.workflow.count(closed)).count === 2 ? true : undefined), 30_000);

    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    list = new TemporalWorkflowList(page, `http://localhost:${ports.TEMPORAL_UI_PORT}`);
    await list.open();
    // The columns docs/operations.md recommends: the payment's status and store next to its id, then its start.
    await list.configureColumns({
      add: ['PaymentStatus', 'StoreId'],
      remove: ['Run ID', 'Type', 'End'],
      moveUp: { PaymentStatus: 1, StoreId: 1 },
    });
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await temporal?.connection.close();
    if (engine) {
      engine.child.kill('SIGTERM');
      const timer = setTimeout(() => process.kill(-engine.pid, 'SIGKILL'), 30_000);
      await engine.exited;
      clearTimeout(timer);
    }
    if (runDir) fs.rmSync(runDir, { recursive: true, force: true });
  });

  const statusOf = (run: { cells: string[] }) => run.cells.find((cell) => ['succeeded', 'failed'].includes(cell));

  it('finds the declined payment by its id: Add Filter → WorkflowId', async () => {
    await list.open();
    await list.addFilter('WorkflowId', payments.declined);
    const query = `WorkflowId="${payments.declined}"`;
    expect(await list.settledQuery(query)).toBe(query);
    const [run] = await list.waitForRuns([payments.declined]);
    // The run itself is COMPLETED (the workflow did its job); the payment's outcome is the PaymentStatus column.
    expect(run!.cells).toEqual(expect.arrayContaining(['COMPLETED', 'failed', payments.storeId]));
    await saveScreenshot(page, 'by-id', 300);
  });

  it('lists only failed payments for PaymentStatus = "failed" typed in the raw query box', async () => {
    await list.open();
    await list.runQuery('PaymentStatus = "failed"');
    const query = 'PaymentStatus = "failed"';
    expect(await list.settledQuery(query)).toBe(query);
    const runs = await list.waitForRuns([payments.declined]);
    expect(runs.map(statusOf)).toEqual(['failed']);
    await saveScreenshot(page, 'by-status', 340);
  });

  it("finds a store's payments, with each payment's status in its row: Add Filter → StoreId", async () => {
    await list.open();
    await list.addFilter('StoreId', payments.storeId);
    const query = `StoreId="${payments.storeId}"`;
    expect(await list.settledQuery(query)).toBe(query);
    const runs = await list.waitForRuns([payments.succeeded, payments.declined]);
    expect(Object.fromEntries(runs.map((run) => [run.workflowId, statusOf(run)]))).toEqual({
      [payments.succeeded]: 'succeeded',
      [payments.declined]: 'failed',
    });
    await saveScreenshot(page, 'by-store', 300);
  });

  it("finds a customer's failed payments: Add Filter → CustomerId, then PaymentStatus", async () => {
    await list.open();
    await list.addFilter('CustomerId', payments.customerId);
    await list.waitForRuns([payments.succeeded, payments.declined]);
    await list.addFilter('PaymentStatus', 'failed', { apply: false });
    // The filter being written, over the customer's two payments: the control docs/operations.md shows.
    await saveScreenshot(page, 'by-customer', 420);
    await list.applyOpenFilter();
    const query = `CustomerId="${payments.customerId}" AND PaymentStatus="failed"`;
    expect(await list.settledQuery(query)).toBe(query);
    const runs = await list.waitForRuns([payments.declined]);
    expect(runs.map(statusOf)).toEqual(['failed']);
  });

  it("shows the failed status on the payment's own page: its result and its search attributes", async () => {
    // The UI's address for a workflow id opens its latest run.
    await page.goto(`http://localhost:${ports.TEMPORAL_UI_PORT}/namespaces/default/workflows/${payments.declined}`);
    const shows = async (...texts: string[]) => {
      let main = '';
      await until(async () => {
        main = await page.locator('main').innerText();
        return texts.every((text) => main.includes(text)) ? true : undefined;
      }, 30_000).catch(() => {
        throw new Error(`the payment's page does not show ${JSON.stringify(texts)}; it shows:\n${main}`);
      });
    };
    await shows('Result', '"status": "failed"', '"declineCode": "card_declined"');
    await saveScreenshot(page, 'payment-result', 560);
    await page.getByText('Search Attributes', { exact: true }).click();
    await shows(
      '"PaymentStatus": "failed"',
      `"StoreId": "${payments.storeId}"`,
      `"CustomerId": "${payments.customerId}"`,
    );
    await saveScreenshot(page, 'payment-search-attributes', 620);
  });
});
