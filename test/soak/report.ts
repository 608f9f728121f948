/** One sample of the engine process: payments done so far, its memory, the p99 of the payments since the last sample. */
export interface Sample {
  payments: number;
  rssMb: number;
  heapUsedMb: number;
  heapTotalMb: number;
  p99Ms: number;
  /** Taken right after a heap snapshot: writing one leaves its memory in RSS, so growth is measured from here. */
  afterHeapSnapshot?: boolean;
}

const mb = (n: number) => n.toFixed(1);

/** Least-squares slope of `value` over payments, per 1,000 payments; NaN with fewer than two samples. */
export function growthPer1000<T extends { payments: number }>(samples: T[], value: (sample: T) => number): number {
  if (samples.length < 2) return Number.NaN;
  const xs = samples.map((s) => s.payments);
  const ys = samples.map(value);
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  const num = xs.reduce((sum, x, i) => sum + (x - mx) * (ys[i]! - my), 0);
  const den = xs.reduce((sum, x) => sum + (x - mx) ** 2, 0);
  return (num / den) * 1000;
}

export function p99(latencies: number[]): number {
  const sorted = [...latencies].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(0.99 * sorted.length))] ?? Number.NaN;
}

export function table(samples: Sample[]): string {
  return [
    '| payments | RSS MB | V8 heap used MB | V8 heap total MB | p99 ms (since previous row) |',
    '|---:|---:|---:|---:|---:|',
    ...samples.map(
      (s) =>
        `| ${s.payments}${s.afterHeapSnapshot ? ' (after heap snapshot)' : ''} | ${mb(s.rssMb)} | ${mb(s.heapUsedMb)} | ${mb(s.heapTotalMb)} | ${s.p99Ms.toFixed(0)} |`,
    ),
  ].join('\n');
}

export interface Verdict {
  warmup: number;
  rssGrowth: number;
  heapGrowth: number;
  finalRssMb: number;
  p99AfterWarmup: number;
  p99AtEnd: number;
  lost: number;
}

/** The memory targets (docs/operations.md): ≤ 1 MB RSS per 1,000 payments after warm-up, ≤ 400 MB at the end, p99 within 1.2×, none lost. */
export function verdict(samples: Sample[], warmup: number, lost: number): Verdict {
  const afterWarmup = samples.filter((s) => s.payments >= warmup);
  const snapshotAt = afterWarmup.findLastIndex((s) => s.afterHeapSnapshot);
  const after = snapshotAt < 0 ? afterWarmup : afterWarmup.slice(snapshotAt);
  return {
    warmup,
    rssGrowth: growthPer1000(after, (s) => s.rssMb),
    heapGrowth: growthPer1000(after, (s) => s.heapUsedMb),
    finalRssMb: samples.at(-1)?.rssMb ?? Number.NaN,
    p99AfterWarmup: after[0]?.p99Ms ?? Number.NaN,
    p99AtEnd: samples.at(-1)?.p99Ms ?? Number.NaN,
    lost,
  };
}

export function verdictLine(v: Verdict): string {
  const ok = (met: boolean) => (met ? 'met' : 'MISSED');
  const ratio = v.p99AtEnd / v.p99AfterWarmup;
  return (
    `verdict: after ${v.warmup} warm-up payments RSS grows ${v.rssGrowth.toFixed(2)} MB/1000 payments ` +
    `(${ok(v.rssGrowth <= 1)} ≤ 1), heap ${v.heapGrowth.toFixed(2)} MB/1000; final RSS ${mb(v.finalRssMb)} MB ` +
    `(${ok(v.finalRssMb <= 400)} ≤ 400); p99 after warm-up ${v.p99AfterWarmup.toFixed(0)} ms, at end ` +
    `${v.p99AtEnd.toFixed(0)} ms (×${ratio.toFixed(2)}, ${ok(ratio <= 1.2)} ≤ 1.2); lost ${v.lost} (${ok(v.lost === 0)})`
  );
}

/** Reads a verdict line back (the smoke test checks that what is printed parses). */
export function parseVerdictLine(line: string): Omit<Verdict, 'lost'> & { lost: number } {
  const match =
    /^verdict: after (\d+) warm-up payments RSS grows (-?[\d.]+|NaN) MB\/1000 payments .*heap (-?[\d.]+|NaN) MB\/1000; final RSS ([\d.]+) MB .*p99 after warm-up (\d+|NaN) ms, at end (\d+|NaN) ms .*lost (\d+)/.exec(
      line,
    );
  if (!match) throw new Error(`not a verdict line: ${line}`);
  const n = match.slice(1).map(Number);
  return {
    warmup: n[0]!,
    rssGrowth: n[1]!,
    heapGrowth: n[2]!,
    finalRssMb: n[3]!,
    p99AfterWarmup: n[4]!,
    p99AtEnd: n[5]!,
    lost: n[6]!,
  };
}

/** The processes of a split run (`--split`): API and worker are the engine; the sandbox is the simulated outside world. */
export const splitRoles = ['api', 'worker', 'sandbox'] as const;
export type SplitRole = (typeof splitRoles)[number];

/** One process's memory in a split sample; heap figures are its main thread's V8 heap (NaN when not probed). */
export interface ProcessMemory {
  rssMb: number;
  heapUsedMb: number;
  heapTotalMb: number;
}

export interface SplitSample {
  payments: number;
  p99Ms: number;
  processes: Record<SplitRole, ProcessMemory>;
}

/** The engine's part of a split sample as one Sample: API + worker summed, so verdict() judges it as it judges `npm start`. */
export function engineSample(s: SplitSample): Sample {
  const { api, worker } = s.processes;
  return {
    payments: s.payments,
    rssMb: api.rssMb + worker.rssMb,
    heapUsedMb: api.heapUsedMb + worker.heapUsedMb,
    heapTotalMb: api.heapTotalMb + worker.heapTotalMb,
    p99Ms: s.p99Ms,
  };
}

export function splitTable(samples: SplitSample[]): string {
  const cells = (m: ProcessMemory) => `${mb(m.rssMb)} | ${mb(m.heapUsedMb)} / ${mb(m.heapTotalMb)}`;
  return [
    '| payments | api RSS | api heap used / total | worker RSS | worker heap used / total | api+worker RSS | sandbox RSS | sandbox heap used / total | p99 ms |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...samples.map(
      (s) =>
        `| ${s.payments} | ${cells(s.processes.api)} | ${cells(s.processes.worker)} | ${mb(engineSample(s).rssMb)} | ${cells(s.processes.sandbox)} | ${s.p99Ms.toFixed(0)} |`,
    ),
  ].join('\n');
}

export interface ProcessGrowth {
  role: SplitRole;
  rssAtWarmupMb: number;
  rssAtEndMb: number;
  /** MB per 1,000 payments after warm-up (least squares). */
  rss: number;
  heapUsed: number;
  heapTotal: number;
  /** RSS − main-thread heap total: native memory, malloc, and (in the worker) the workflow thread's isolate. */
  outsideMainHeap: number;
}

/** Per-process growth after warm-up, in MB per 1,000 payments. */
export function splitGrowth(samples: SplitSample[], warmup: number): ProcessGrowth[] {
  const after = samples.filter((s) => s.payments >= warmup);
  return splitRoles.map((role) => {
    const of = (s: SplitSample) => s.processes[role];
    return {
      role,
      rssAtWarmupMb: after[0] ? of(after[0]).rssMb : Number.NaN,
      rssAtEndMb: after.at(-1) ? of(after.at(-1)!).rssMb : Number.NaN,
      rss: growthPer1000(after, (s) => of(s).rssMb),
      heapUsed: growthPer1000(after, (s) => of(s).heapUsedMb),
      heapTotal: growthPer1000(after, (s) => of(s).heapTotalMb),
      outsideMainHeap: growthPer1000(after, (s) => of(s).rssMb - of(s).heapTotalMb),
    };
  });
}

export function splitGrowthTable(growth: ProcessGrowth[]): string {
  const f = (n: number) => n.toFixed(2);
  return [
    '| process | RSS at warm-up MB | RSS at end MB | RSS MB/1000 | heap used MB/1000 | heap total MB/1000 | RSS − heap total MB/1000 |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...growth.map(
      (g) =>
        `| ${g.role} | ${mb(g.rssAtWarmupMb)} | ${mb(g.rssAtEndMb)} | ${f(g.rss)} | ${f(g.heapUsed)} | ${f(g.heapTotal)} | ${f(g.outsideMainHeap)} |`,
    ),
  ].join('\n');
}
