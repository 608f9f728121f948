import { spawn, type ChildProcess } from 'node:child_process';
import { projectRoot } from '../../src/config';
import { launchCommandOf } from './launchCommand';

export interface ApiProcess {
  child: ChildProcess;
  url: string;
  output(): string;
  /** SIGKILL to the whole process group: no drain, no answer stored, as a crash. */
  kill(): Promise<void>;
}

/**
 * `npm run api` (node dist/src/cli/api.js as the script line says; jest's set-up built dist/) as
 * its own process against the test run's Postgres and dev server, on `port`; resolves once its
 * health endpoint answers.
 */
export async function startApiProcess(
  port: number,
  env: Record<string, string>,
  timeoutMs = 60_000,
): Promise<ApiProcess> {
  const launch = launchCommandOf('api', process.env);
  const child = spawn(process.execPath, launch.args, {
    cwd: projectRoot,
    env: {
      ...process.env,
      ...launch.env,
      DATABASE_URL: process.env.TEST_DATABASE_URL,
      TEMPORAL_ADDRESS: process.env.TEST_TEMPORAL_ADDRESS,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const api: ApiProcess = {
    child,
    url,
    output: () => output,
    kill: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        process.kill(-child.pid!, 'SIGKILL');
      }),
  };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`api exited during start-up:\n${output}`);
    const healthy = await fetch(`${url}/api/public/v1/health`).then(
      (answer) => answer.status === 200,
      () => false,
    );
    if (healthy) return api;
    if (Date.now() > deadline) {
      await api.kill();
      throw new Error(`api did not answer within ${timeoutMs} ms:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
