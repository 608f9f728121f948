import fs from 'node:fs';
import inspector from 'node:inspector';
import type { Client } from '@temporalio/client';
import pg from 'pg';

/**
 * Counts the SQL statements this process sends to Postgres (every Prisma query, BEGIN and COMMIT
 * included: each is a round trip the database serves), by wrapping node-postgres' Client#query,
 * which Prisma's pg adapter calls for every statement. `record` keeps the texts of a window.
 */
export function installStatementCounter() {
  let count = 0;
  let recorded: string[] | null = null;
  const original = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    count++;
    if (recorded) {
      const first = args[0] as string | { text?: string };
      recorded.push(typeof first === 'string' ? first : (first?.text ?? '?'));
    }
    return original.apply(this, args);
  } as typeof pg.Client.prototype.query;
  return {
    count: () => count,
    record: () => {
      recorded = [];
    },
    stopRecording: (): string[] => {
      const texts = recorded ?? [];
      recorded = null;
      return texts;
    },
  };
}

/** user+system CPU in ms of this process and of the given child processes (from /proc/<pid>/stat). */
export function cpuMs(childPids: number[]): number {
  const own = process.cpuUsage();
  let total = (own.user + own.system) / 1000;
  const tickMs = 1000 / 100; // USER_HZ is 100 on Linux
  for (const pid of childPids) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      total += (Number(fields[11]) + Number(fields[12])) * tickMs; // utime, stime
    } catch {
      // The child is gone: its CPU can no longer be read.
    }
  }
  return total;
}

/** Workflow tasks (completed) and history events of one run. */
export async function historyShape(client: Client, workflowId: string) {
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  const events = history.events ?? [];
  return {
    events: events.length,
    workflowTasks: events.filter((e) => e.workflowTaskCompletedEventAttributes).length,
    activities: events.filter((e) => e.activityTaskScheduledEventAttributes).length,
  };
}

/** Where a payment's time goes: each history event's offset from the workflow's start. */
export async function historyTimeline(client: Client, workflowId: string): Promise<string> {
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  const events = history.events ?? [];
  const ms = (e: (typeof events)[number]) =>
    Number(e.eventTime?.seconds ?? 0) * 1000 + Math.round((e.eventTime?.nanos ?? 0) / 1e6);
  const start = events[0] ? ms(events[0]) : 0;
  return events.map((e) => `  +${String(ms(e) - start).padStart(5)}  ${String(e.eventType)}`).join('\n');
}

/**
 * BENCH_PROFILE=<file>: a CPU profile (.cpuprofile, for Chrome DevTools) of this process's main
 * thread over one window, taken through the inspector; the workflow threads are not in it.
 */
export function mainThreadProfiler(file: string | undefined) {
  if (!file) return { start: async () => undefined, stop: async () => undefined };
  const session = new inspector.Session();
  const post = (method: string) =>
    new Promise<unknown>((resolve, reject) =>
      session.post(method, (error, result) => (error ? reject(error) : resolve(result))),
    );
  return {
    start: async () => {
      session.connect();
      await post('Profiler.enable');
      await post('Profiler.start');
    },
    stop: async () => {
      const { profile } = (await post('Profiler.stop')) as { profile: unknown };
      fs.writeFileSync(file, JSON.stringify(profile));
      session.disconnect();
    },
  };
}
