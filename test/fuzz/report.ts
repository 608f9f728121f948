/** One check's verdict on one generated case, as schemathesis' NDJSON report gives it. */
interface CheckResult {
  name: string;
  status: string;
  failure_info?: { failure?: { code?: string; title?: string; operation?: string; message?: string } };
}

interface ScenarioFinished {
  recorder?: { label?: string; cases?: Record<string, unknown>; checks?: Record<string, CheckResult[]> };
}

export interface FuzzFigures {
  cases: number;
  operations: number;
  /** Failing cases per check (not_a_server_error, status_code_conformance, …). */
  failuresByCheck: Record<string, number>;
  /** Distinct (operation, failure title) pairs, with one message each. */
  uniqueFailures: { operation: string; title: string; message: string }[];
}

/** Adds up the cases and failures of schemathesis NDJSON reports (one per shard). */
export function figuresOf(reports: string[]): FuzzFigures {
  const cases = new Set<string>();
  const operations = new Set<string>();
  const failuresByCheck: Record<string, number> = {};
  const unique = new Map<string, { operation: string; title: string; message: string }>();
  reports.forEach((report, shard) => {
    for (const line of report.split('\n')) {
      if (!line.startsWith('{"ScenarioFinished"')) continue;
      const recorder = (JSON.parse(line) as { ScenarioFinished: ScenarioFinished }).ScenarioFinished.recorder;
      for (const id of Object.keys(recorder?.cases ?? {})) cases.add(`${shard}:${id}`);
      if (recorder?.label && recorder.label !== 'Stateful tests') operations.add(recorder.label);
      for (const results of Object.values(recorder?.checks ?? {})) {
        for (const result of results) {
          if (result.status !== 'failure') continue;
          failuresByCheck[result.name] = (failuresByCheck[result.name] ?? 0) + 1;
          const failure = result.failure_info?.failure;
          const operation = failure?.operation ?? recorder?.label ?? '?';
          const title = failure?.title ?? result.name;
          unique.set(`${operation} ${title}`, {
            operation,
            title,
            message: (failure?.message ?? '').split('\n').slice(0, 2).join(' '),
          });
        }
      }
    }
  });
  return { cases: cases.size, operations: operations.size, failuresByCheck, uniqueFailures: [...unique.values()] };
}

/** The one line `npm run fuzz` ends with. */
export function summaryLine(figures: FuzzFigures, engineViolations: number, seconds: number): string {
  const kinds = [
    'not_a_server_error',
    'status_code_conformance',
    'content_type_conformance',
    'response_schema_conformance',
  ];
  const byKind = kinds.map((kind) => `${kind} ${figures.failuresByCheck[kind] ?? 0}`).join(', ');
  const others = Object.entries(figures.failuresByCheck).filter(([kind]) => !kinds.includes(kind));
  return [
    `fuzz: ${figures.cases} cases over ${figures.operations} operations in ${Math.round(seconds)} s;`,
    `failing cases: ${byKind}${others.map(([kind, count]) => `, ${kind} ${count}`).join('')};`,
    `${figures.uniqueFailures.length} unique failures; engine-side contract violations ${engineViolations}`,
  ].join(' ');
}
