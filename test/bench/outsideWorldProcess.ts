import { fork } from 'node:child_process';
import path from 'node:path';
import type { PayRequest, PayResult } from './outsideWorld';

/** Starts test/bench/outsideWorld.ts as a child process; resolves once its sandbox listens. */
export async function startOutsideWorld(): Promise<{
  sandboxUrl: string;
  pay: (request: PayRequest) => Promise<PayResult>;
  stop: () => Promise<void>;
}> {
  const child = fork(path.join(__dirname, 'outsideWorld.ts'), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const next = <T>(kind: string) =>
    new Promise<T>((resolve, reject) => {
      const onMessage = (message: { kind: string } & Record<string, unknown>) => {
        if (message.kind !== kind) return;
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(message as T);
      };
      const onExit = (code: number | null) => reject(new Error(`the bench's outside world exited with ${code}`));
      child.on('message', onMessage);
      child.once('exit', onExit);
    });
  const { sandboxUrl } = await next<{ sandboxUrl: string }>('ready');
  let queue = Promise.resolve<unknown>(undefined);
  return {
    sandboxUrl,
    // One row at a time: each answer belongs to the request before it.
    pay: (request) => {
      const answered = queue.then(() => {
        const result = next<{ result: PayResult }>('paid');
        child.send({ kind: 'pay', request });
        return result;
      });
      queue = answered.catch(() => undefined);
      return answered.then((message) => message.result);
    },
    stop: async () => {
      if (child.exitCode !== null) return;
      child.send({ kind: 'stop' });
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}
