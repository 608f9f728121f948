import type { RecordedStatement } from './measures';
import type { summary } from './setup';

type Row = ReturnType<typeof summary>;
type Shape = { events: number; workflowTasks: number; activities: number } | undefined;

export interface Measured {
  clients: number;
  separateWorker: boolean;
  one: { empty: Row; shaped: Row; allLocal: Row; engine: Row };
  many: { empty: Row; shaped: Row; allLocal: Row; engine: Row; steps: Row };
  /** null when the worker runs in its own process (its statements are not counted). */
  statementsPerPayment: number | null;
  cpuPerPayment: number;
  /** CPU per payment of the outside world's process (load clients, sandbox acquirer and outbox). */
  outsideCpuPerPayment: number;
  /** CPU of this process per payment of the steps-only run: the engine's own work without HTTP and Temporal. */
  stepsCpuPerPayment: number;
  /** CPU of this process per run of the floors at the same concurrency. */
  floorCpu: { empty: number; shaped: number; allLocal: number };
  /** This process's CPU per run by thread name, in the all-local floor, pay-v2 and steps-only runs. */
  threadCpu: { allLocal: string; engine: string; steps: string };
  shapes: { engine: Shape; empty: Shape; shaped: Shape; allLocal: Shape };
  statementList: RecordedStatement[];
}

const row = (s: Row) =>
  `${s.label.padEnd(58)} n=${s.count} ok=${s.succeeded}  p50 ${s.p50.toFixed(1)} ms  p95 ${s.p95.toFixed(1)} ms  p99 ${s.p99.toFixed(1)} ms  ${s.perSecond.toFixed(1)} payments/s`;
const shape = (s: Shape) =>
  s ? `${s.workflowTasks} workflow tasks, ${s.events} history events, ${s.activities} activities` : 'n/a';
const x = (a: number, b: number) => `×${(a / b).toFixed(2)}`;

/** The bench's printout: rows, ratios to the floor, per-payment costs and the speed targets (docs/speed.md). */
export function report(m: Measured): string {
  const { one, many, clients } = m;
  const check = (label: string, ok: boolean) => `  ${ok ? 'met   ' : 'MISSED'} ${label}`;
  return [
    '',
    m.separateWorker
      ? "Worker in its own process (`npm run worker`); API, floor worker and the floors' Temporal client share this one;"
      : "API, worker, floor worker and the floors' Temporal client share one Node process, as under `npm start`;",
    'the pay-v2 load clients and the sandbox (acquirer, outbox) run in a process of their own (the outside world);',
    'Postgres and the Temporal dev server are their own processes on the same 2 cores.',
    row(one.empty),
    row(one.shaped),
    row(one.allLocal),
    row(one.engine),
    row(many.empty),
    row(many.shaped),
    row(many.allLocal),
    row(many.engine),
    row(many.steps),
    `ratio pay-v2 / empty floor, 1 client: p50 ${x(one.engine.p50, one.empty.p50)}`,
    `ratio pay-v2 / payment-shaped floor, 1 client: p50 ${x(one.engine.p50, one.shaped.p50)}`,
    `ratio pay-v2 / all-local floor, 1 client: p50 ${x(one.engine.p50, one.allLocal.p50)}`,
    `ratio pay-v2 / empty floor, ${clients} clients: p50 ${x(many.engine.p50, many.empty.p50)}  throughput ${x(many.engine.perSecond, many.empty.perSecond)}`,
    `ratio pay-v2 / payment-shaped floor, ${clients} clients: p50 ${x(many.engine.p50, many.shaped.p50)}  throughput ${x(many.engine.perSecond, many.shaped.perSecond)}`,
    `ratio pay-v2 / all-local floor, ${clients} clients: p50 ${x(many.engine.p50, many.allLocal.p50)}  throughput ${x(many.engine.perSecond, many.allLocal.perSecond)}  cpu ${x(m.cpuPerPayment, m.floorCpu.allLocal)}`,
    `ratio pay-v2 / steps only, ${clients} clients: p50 ${x(many.engine.p50, many.steps.p50)}  throughput ${x(many.engine.perSecond, many.steps.perSecond)}`,
    m.statementsPerPayment === null
      ? 'statements per payment: not counted with BENCH_WORKER=process (the worker sends them from its own process)'
      : `statements per payment: ${m.statementsPerPayment.toFixed(1)} (SQL sent to Postgres by this process during the ${clients}-client pay-v2 run ÷ payments; BEGIN/COMMIT count)`,
    `engine cpu per payment: ${m.cpuPerPayment.toFixed(1)} ms (user+system of ${m.separateWorker ? 'this process and the worker process' : 'this process'} over the ${clients}-client pay-v2 run ÷ payments: API, worker and workflow threads)`,
    `outside world cpu per payment: ${m.outsideCpuPerPayment.toFixed(1)} ms (the process of the load clients, sandbox acquirer and outbox; not the engine's)`,
    `steps-only cpu per payment: ${m.stepsCpuPerPayment.toFixed(1)} ms (this process over the ${clients}-client steps-only run ÷ payments: the engine's database work, processor call and receipt, without HTTP and Temporal)`,
    `floor cpu per run: empty ${m.floorCpu.empty.toFixed(1)} ms, payment-shaped ${m.floorCpu.shaped.toFixed(1)} ms, all-local ${m.floorCpu.allLocal.toFixed(1)} ms (this process over the ${clients}-client floor runs ÷ runs: the Temporal client, worker and workflow threads with no engine work)`,
    `cpu per run by thread (ms): all-local floor: ${m.threadCpu.allLocal}`,
    `  pay-v2: ${m.threadCpu.engine}`,
    `  steps only: ${m.threadCpu.steps}`,
    `per payment: ${shape(m.shapes.engine)}`,
    `per empty floor run: ${shape(m.shapes.empty)}; per payment-shaped floor run: ${shape(m.shapes.shaped)}; per all-local floor run: ${shape(m.shapes.allLocal)}`,
    `latencies and rates count succeeded runs only; failed answers: engine ${many.engine.count - many.engine.succeeded + one.engine.count - one.engine.succeeded}, steps only ${many.steps.count - many.steps.succeeded}`,
    ...(m.statementList.length > 0
      ? [
          `SQL statements of one uncontended pay-v2 (${m.statementList.length}; when each left, ms after the request was handed to the load client, then its round trip in ms):`,
          ...m.statementList.map(
            (s, i) =>
              `  ${String(i + 1).padStart(2)}. +${s.startMs.toFixed(1).padStart(5)} ${s.durationMs.toFixed(2).padStart(5)} ms  ${s.text.replace(/\s+/g, ' ').slice(0, 200)}`,
          ),
        ]
      : []),
    `targets (${clients} clients):`,
    check(
      `1 client: pay-v2 p50 <= 1.5 × empty floor p50 (${one.engine.p50.toFixed(1)} vs ${(1.5 * one.empty.p50).toFixed(1)} ms)`,
      one.engine.p50 <= 1.5 * one.empty.p50,
    ),
    check(
      `${clients} clients: payments/s >= 0.7 × empty floor rate (${many.engine.perSecond.toFixed(1)} vs ${(0.7 * many.empty.perSecond).toFixed(1)})`,
      many.engine.perSecond >= 0.7 * many.empty.perSecond,
    ),
    check(
      `1 client: pay-v2 p50 <= 1.3 × all-local floor p50 (${one.engine.p50.toFixed(1)} vs ${(1.3 * one.allLocal.p50).toFixed(1)} ms)`,
      one.engine.p50 <= 1.3 * one.allLocal.p50,
    ),
    check(
      `${clients} clients: payments/s >= 0.8 × all-local floor rate (${many.engine.perSecond.toFixed(1)} vs ${(0.8 * many.allLocal.perSecond).toFixed(1)})`,
      many.engine.perSecond >= 0.8 * many.allLocal.perSecond,
    ),
    check(
      `${clients} clients: engine cpu per payment <= 1.5 × all-local floor cpu per run (${m.cpuPerPayment.toFixed(1)} vs ${(1.5 * m.floorCpu.allLocal).toFixed(1)} ms)`,
      m.cpuPerPayment <= 1.5 * m.floorCpu.allLocal,
    ),
    check(
      `${clients} clients: p99 <= 2 × p50 (${many.engine.p99.toFixed(1)} vs ${(2 * many.engine.p50).toFixed(1)} ms)`,
      many.engine.p99 <= 2 * many.engine.p50,
    ),
    ...(m.statementsPerPayment === null
      ? []
      : [check(`<= 8 SQL statements per payment (${m.statementsPerPayment.toFixed(1)})`, m.statementsPerPayment <= 8)]),
    '',
  ].join('\n');
}
