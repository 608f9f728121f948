import fs from 'node:fs';
import path from 'node:path';
import { crash, spawnRole, waitFor, type EngineProcess, type Role } from '../helpers/engineProcess';

export interface ClusterSettings {
  databaseUrl: string;
  temporalAddress: string;
  taskQueue: string;
  apiPort: number;
  sandboxPort: number;
  /** DATA_DIR of all three roles: the card vault's key (API and worker) and the acquirer's journal (sandbox). */
  dataDir: string;
  logDir: string;
  /** Opens an IPC channel to each role, for memory probes (npm run soak -- --split). */
  ipc?: boolean;
}

/**
 * API, worker and sandbox, each `npm run <role>` as a process of its own (split deployment), with
 * what a role needs to be ready: API and sandbox answer /health, the worker says it polls.
 */
export class Cluster {
  private readonly running = new Map<Role, EngineProcess>();
  private readonly generation = new Map<Role, number>();

  constructor(private readonly settings: ClusterSettings) {
    fs.mkdirSync(settings.logDir, { recursive: true });
  }

  get apiUrl(): string {
    return `http://127.0.0.1:${this.settings.apiPort}`;
  }

  get sandboxUrl(): string {
    return `http://127.0.0.1:${this.settings.sandboxPort}`;
  }

  /** The role's running process (throws when it was never started). */
  process(role: Role): EngineProcess {
    const engine = this.running.get(role);
    if (!engine) throw new Error(`${role} is not running`);
    return engine;
  }

  /** Starts a role and waits until it is ready; each start logs to its own file (`worker-2.log`). */
  async start(role: Role): Promise<void> {
    const generation = (this.generation.get(role) ?? 0) + 1;
    this.generation.set(role, generation);
    const { databaseUrl, temporalAddress, taskQueue, apiPort, sandboxPort, dataDir } = this.settings;
    const engine = spawnRole(
      role,
      {
        DATABASE_URL: databaseUrl,
        TEMPORAL_ADDRESS: temporalAddress,
        TEMPORAL_TASK_QUEUE: taskQueue,
        PORT: String(apiPort),
        SANDBOX_PORT: String(sandboxPort),
        SANDBOX_URL: this.sandboxUrl,
        DATA_DIR: dataDir,
        // The API logs every request at info; the worker's readiness is its "worker polling" line.
        LOG_LEVEL: role === 'api' ? 'warn' : 'info',
        REDIS_URL: undefined,
      },
      { logFile: path.join(this.settings.logDir, `${role}-${generation}.log`), ipc: this.settings.ipc },
    );
    this.running.set(role, engine);
    await waitFor(`${role} to be ready`, () => this.ready(role, engine), engine, 90_000);
  }

  /** `kill -9`, a pause of `downMs`, then a fresh start. */
  async crashAndRestart(role: Role, downMs: number): Promise<void> {
    const engine = this.running.get(role);
    if (engine) await crash(engine);
    await new Promise((resolve) => setTimeout(resolve, downMs));
    await this.start(role);
  }

  /** SIGTERM to every role (an orderly drain), `kill -9` for any still there after 15 s. */
  async stop(): Promise<void> {
    await Promise.all(
      [...this.running.values()].map(async (engine) => {
        if (engine.child.exitCode !== null || engine.child.signalCode !== null) return;
        engine.child.kill('SIGTERM');
        const timer = setTimeout(() => engine.child.kill('SIGKILL'), 15_000);
        await engine.exited;
        clearTimeout(timer);
      }),
    );
  }

  private async ready(role: Role, engine: EngineProcess): Promise<boolean> {
    if (role === 'worker') return engine.messages().includes('worker polling');
    const url = role === 'api' ? `${this.apiUrl}/api/public/v1/health` : `${this.sandboxUrl}/health`;
    return (await fetch(url)).status === 200;
  }
}
