import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

/**
 * `npm run worker` as its own process against the bench's Postgres, Temporal and sandbox: the
 * production shape where API and worker scale out separately. Resolves once it polls, with its
 * pid (the bench reads its CPU from /proc).
 */
export async function startWorkerProcess(env: {
  databaseUrl: string;
  temporalAddress: string;
  taskQueue: string;
  sandboxUrl: string;
  dataDir: string;
}): Promise<{ pid: number; stop: () => Promise<void> }> {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(__dirname, '..', '..', 'src', 'cli', 'worker.ts')],
    {
      cwd: path.join(__dirname, '..', '..'),
      env: {
        ...process.env,
        DATABASE_URL: env.databaseUrl,
        TEMPORAL_ADDRESS: env.temporalAddress,
        TEMPORAL_TASK_QUEUE: env.taskQueue,
        SANDBOX_URL: env.sandboxUrl,
        // The card vault's key file lives there: the worker must decrypt what the API encrypted.
        DATA_DIR: env.dataDir,
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  await new Promise<void>((resolve, reject) => {
    let seen = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      if (seen.includes('worker polling')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`worker process exited with ${code} before polling`)));
  });
  child.stdout!.resume();
  return {
    pid: child.pid!,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
