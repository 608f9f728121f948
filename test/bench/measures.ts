import fs from 'node:fs';
import inspector from 'node:inspector';
import path from 'node:path';
import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import pg from 'pg';

/**
 * Counts the SQL statements this process sends to Postgres (every Prisma query, BEGIN and COMMIT
 * included: each is a round trip the database serves), by wrapping node-postgres' Client#query,
 * which Prisma's pg adapter calls for every statement. `record` keeps the texts of a window, with
 * when each left and how long its answer took (the round trip as this process sees it).
 */
export function installStatementCounter() {
  let count = 0;
  let recorded: RecordedStatement[] | null = null;
  let recordingSince = 0;
  const original = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    count++;
    if (recorded) {
      const first = args[0] as string | { text?: string };
      const statement: RecordedStatement = {
        text: typeof first === 'string' ? first : (first?.text ?? '?'),
        startMs: performance.now() - recordingSince,
        durationMs: Number.NaN,
      };
      recorded.push(statement);
      const started = performance.now();
      const settled = () => (statement.durationMs = performance.now() - started);
      // Prisma's adapter passes a callback; other callers take the promise.
      const last = args.length - 1;
      const callback = args[last];
      if (typeof callback === 'function')
        args[last] = (...answer: unknown[]) => {
          settled();
          return (callback as (...a: unknown[]) => unknown)(...answer);
        };
      const result = original.apply(this, args);
      if (isThenable(result)) result.then(settled, settled);
      return result;
    }
    return original.apply(this, args);
  } as typeof pg.Client.prototype.query;
  return {
    count: () => count,
    record: () => {
      recorded = [];
      recordingSince = performance.now();
    },
    stopRecording: (): RecordedStatement[] => {
      const statements = recorded ?? [];
      recorded = null;
      return statements;
    },
  };
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | null)?.then === 'function';
}

/** A statement sent while recording: when it left (ms after recording began) and how long until its answer. */
export interface RecordedStatement {
  text: string;
  startMs: number;
  durationMs: number;
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

/**
 * user+system CPU in ms of this process's threads, summed by thread name (/proc/self/task): the
 * main thread (the process's own name), the workflow threads, the Temporal core's runtime threads,
 * V8's and libuv's helpers.
 */
export function threadCpuMs(): Map<string, number> {
  const byName = new Map<string, number>();
  const tickMs = 1000 / 100;
  for (const tid of fs.readdirSync('/proc/self/task')) {
    try {
      const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ms = (Number(fields[11]) + Number(fields[12])) * tickMs;
      byName.set(name, (byName.get(name) ?? 0) + ms);
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return byName;
}

/** Per-thread-name CPU between two `threadCpuMs` readings, per run, largest first (threads that ended are not counted). */
export function threadCpuPerRun(before: Map<string, number>, after: Map<string, number>, runs: number): string {
  return [...after]
    .map(([name, ms]) => [name, (ms - (before.get(name) ?? 0)) / Math.max(1, runs)] as const)
    .filter(([, ms]) => ms >= 0.05)
    .sort((a, b) => b[1] - a[1])
    .map(([name, ms]) => `${name} ${ms.toFixed(1)}`)
    .join(', ');
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
  const name = (type: unknown) =>
    String(temporal.api.enums.v1.EventType[type as number] ?? type).replace(/^EVENT_TYPE_/, '');
  return events.map((e) => `  +${String(ms(e) - start).padStart(5)}  ${name(e.eventType)}`).join('\n');
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
    /** Writes the profile to the file, or beside it with `suffix` before its extension. */
    stop: async (suffix = '') => {
      const { profile } = (await post('Profiler.stop')) as { profile: unknown };
      const extension = path.extname(file);
      fs.writeFileSync(
        suffix ? `${file.slice(0, file.length - extension.length)}${suffix}${extension}` : file,
        JSON.stringify(profile),
      );
      session.disconnect();
    },
  };
}
