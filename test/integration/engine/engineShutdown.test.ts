import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@temporalio/client';
import { createTemporalClient } from '../../../temporal/connection';
import { checkoutExpiryWorkflowId } from '../../../workflows/commerce/checkoutExpiry';
import { eventOutboxWorkflowId } from '../../../workflows/events/outbox';
import { maintenanceWorkflowId } from '../../../workflows/maintenance/idempotencySweep';
import {
  childrenOf,
  freeEnginePorts,
  healthStatus,
  isAlive,
  spawnEngine,
  waitFor,
  type ChildInfo,
  type EngineProcess,
  type EnginePorts,
} from '../../helpers/engineProcess';

/**
 * `npm start` as a separate process: Postgres and the Temporal dev server are its children, each
 * in its own process group, and both signals leave nothing running, log the last steps, and keep
 * the data for the next start.
 */
describe('npm start: shutdown on SIGTERM and Ctrl-C, restart on the same DATA_DIR', () => {
  let runDir: string;
  let ports: EnginePorts;
  const engines: EngineProcess[] = [];
  const children: ChildInfo[] = [];

  beforeAll(async () => {
    runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'payment-engine-start-'));
    // As root Postgres runs as the `postgres` user, which must be able to enter the folder.
    fs.chmodSync(runDir, 0o755);
    ports = await freeEnginePorts();
  });
  afterAll(() => {
    for (const engine of engines) if (isAlive(engine.pid)) process.kill(-engine.pid, 'SIGKILL');
    for (const child of children) if (isAlive(child.pid)) process.kill(child.pid, 'SIGKILL');
    fs.rmSync(runDir, { recursive: true, force: true });
  });

  const start = async (): Promise<{ engine: EngineProcess; postgres: ChildInfo; temporal: ChildInfo }> => {
    const engine = spawnEngine({ ...ports, DATA_DIR: path.join(runDir, 'data') });
    engines.push(engine);
    await waitFor('health 200', async () => (await healthStatus(ports.PORT)) === 200, engine);
    const spawned = childrenOf(engine.pid);
    children.push(...spawned);
    const postgres = spawned.find((child) => child.command === 'postgres');
    const temporal = spawned.find((child) => child.command === 'temporal');
    if (!postgres || !temporal)
      throw new Error(`expected postgres and temporal children, got ${JSON.stringify(spawned)}`);
    // Own process groups: a Ctrl-C in the terminal reaches the engine only, which stops them in order.
    expect(postgres.pgid).not.toBe(engine.pid);
    expect(temporal.pgid).not.toBe(engine.pid);
    return { engine, postgres, temporal };
  };

  const expectCleanStop = async (engine: EngineProcess, spawned: ChildInfo[]) => {
    let timer: NodeJS.Timeout | undefined;
    const exit = await Promise.race([
      engine.exited,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no exit:\n${engine.output()}`)), 40_000);
      }),
    ]).finally(() => clearTimeout(timer));
    expect(exit).toEqual({ code: 0, signal: null });
    const messages = engine.messages();
    const stopped = messages.filter((msg) => msg.endsWith(' stopped'));
    expect(stopped).toEqual([
      'api stopped',
      'worker stopped',
      'sandbox stopped',
      'temporal client stopped',
      'temporal stopped',
      'database pool stopped',
      'postgres stopped',
    ]);
    expect(messages.at(-1)).toBe('postgres stopped');
    for (const child of spawned) expect({ ...child, alive: isAlive(child.pid) }).toEqual({ ...child, alive: false });
    // A fast shutdown removes the pid file; a killed postmaster leaves it behind.
    expect(fs.existsSync(path.join(runDir, 'data', 'postgres', 'postmaster.pid'))).toBe(false);
  };

  const connect = (): Promise<Client> =>
    createTemporalClient({ address: `127.0.0.1:${ports.TEMPORAL_DEV_SERVER_PORT}`, namespace: 'default' });

  it('stops everything in order on SIGTERM to node alone, and on a Ctrl-C to the whole group; history survives', async () => {
    const first = await start();
    let client = await connect();
    const before = await client.workflow.getHandle(maintenanceWorkflowId).describe();
    expect(before.status.name).toBe('RUNNING');
    // The other singletons npm start owns run too.
    for (const singleton of [eventOutboxWorkflowId, checkoutExpiryWorkflowId]) {
      expect((await client.workflow.getHandle(singleton).describe()).status.name).toBe('RUNNING');
    }
    await client.connection.close();

    process.kill(first.engine.pid, 'SIGTERM');
    await expectCleanStop(first.engine, [first.postgres, first.temporal]);

    const second = await start();
    expect(second.engine.messages()).toContain('database schema up to date');
    client = await connect();
    const after = await client.workflow.getHandle(maintenanceWorkflowId, before.runId).describe();
    expect(after.runId).toBe(before.runId);
    expect(after.startTime).toEqual(before.startTime);
    expect(
      (await client.workflow.getHandle(maintenanceWorkflowId, before.runId).fetchHistory()).events?.length,
    ).toBeGreaterThan(0);
    await client.connection.close();

    // Ctrl-C: SIGINT to the process group, pressed twice; the second must not cut the drain short.
    process.kill(-second.engine.pid, 'SIGINT');
    await waitFor('shutdown to begin', () => second.engine.messages().includes('shutting down'), second.engine, 10_000);
    process.kill(-second.engine.pid, 'SIGINT');
    await expectCleanStop(second.engine, [second.postgres, second.temporal]);
    expect(second.engine.messages()).toContain('already shutting down; signal ignored');
  }, 120_000);
});
