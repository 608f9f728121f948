import v8 from 'node:v8';

/** What `npm run soak` asks the engine over its IPC channel, and what it answers. */
export type MemoryProbeRequest = { kind: 'memory' } | { kind: 'heap-snapshot'; file: string };
export type MemoryProbeAnswer =
  | {
      kind: 'memory';
      rss: number;
      heapUsed: number;
      heapTotal: number;
      external: number;
      arrayBuffers: number;
      /** Committed bytes of each V8 heap space (new, old, code, large objects…): where heap total grows. */
      heapSpaces: Record<string, number>;
    }
  | { kind: 'heap-snapshot'; file: string };

/**
 * Answers memory probes from the parent process (`npm start`, `npm run api | worker | sandbox`).
 * Off unless a parent opened an IPC channel when it spawned the process (only `npm run soak` does,
 * `--split` for each role): nothing listens on a port, and a terminal's `npm start` has no channel.
 * The channel is unref'd, so it never keeps the process alive.
 */
export function answerMemoryProbes(): void {
  const send = process.send?.bind(process);
  if (!send) return;
  process.channel?.unref();
  process.on('message', (request: MemoryProbeRequest) => {
    if (request.kind === 'memory') {
      const usage = process.memoryUsage();
      const heapSpaces = Object.fromEntries(v8.getHeapSpaceStatistics().map((s) => [s.space_name, s.space_size]));
      send({ kind: 'memory', ...usage, heapSpaces } satisfies MemoryProbeAnswer);
    } else if (request.kind === 'heap-snapshot') {
      send({ kind: 'heap-snapshot', file: v8.writeHeapSnapshot(request.file) } satisfies MemoryProbeAnswer);
    }
  });
}
