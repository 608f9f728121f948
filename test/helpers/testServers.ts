import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

/**
 * The time-skipping test server ignores SIGTERM, and the SDK kills it only in `teardown()`: a jest
 * worker that ends any other way (killed for its memory, a crash, a forced exit) leaves it running.
 * Each one started is noted in the run's folder (TEST_RUN_DIR, made by the global set-up); the
 * global tear-down stops whatever is noted and still alive (SIGTERM, SIGKILL after a grace period).
 */
const serversDir = () => (process.env.TEST_RUN_DIR ? path.join(process.env.TEST_RUN_DIR, 'test-servers') : undefined);
const isTestServer = (args: string) => /temporal-test-server/.test(args);

/** Test servers that are direct children of this process. */
export function ownTestServers(): number[] {
  let listing = '';
  try {
    listing = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(process.pid)], { encoding: 'utf8' });
  } catch {
    return []; // ps exits 1 when there are none
  }
  return listing
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(.*)$/.exec(line))
    .filter((match): match is RegExpExecArray => match !== null && isTestServer(match[2]!))
    .map((match) => Number(match[1]));
}

export function noteTestServers(pids: number[]): void {
  const dir = serversDir();
  if (!dir) return;
  fs.mkdirSync(dir, { recursive: true });
  for (const pid of pids) fs.writeFileSync(path.join(dir, String(pid)), '');
}

/** Whether the pid is (still) a running test server: not gone, not a zombie, not a reused pid. */
function isRunningTestServer(pid: number): boolean {
  try {
    return isTestServer(fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' '));
  } catch {
    return false;
  }
}

const signal = (pid: number, name: NodeJS.Signals) => {
  try {
    process.kill(pid, name);
  } catch {
    // gone meanwhile
  }
};

/**
 * Stops a test server: SIGTERM, then SIGKILL if it is still running after `graceMs` (it ignores
 * SIGTERM), and waits until it is gone. Acts only while the pid is still a test server.
 */
export async function killTestServer(pid: number, graceMs = 2_000): Promise<boolean> {
  if (!isRunningTestServer(pid)) return false;
  signal(pid, 'SIGTERM');
  const gone = async (ms: number) => {
    for (const deadline = Date.now() + ms; Date.now() < deadline; await delay(50))
      if (!isRunningTestServer(pid)) return true;
    return !isRunningTestServer(pid);
  };
  if (await gone(graceMs)) return true;
  signal(pid, 'SIGKILL');
  if (!(await gone(5_000))) process.stderr.write(`[tear-down] test server ${pid} survived SIGKILL\n`);
  return true;
}

/**
 * Test servers of this checkout's binary whose parent is gone (reparented away from the node
 * process that started them): their jest worker died, possibly before it could note them.
 */
export function orphanedTestServers(binaryPath: string): number[] {
  const read = (file: string) => {
    try {
      return fs.readFileSync(file, 'utf8');
    } catch {
      return '';
    }
  };
  return fs
    .readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => read(`/proc/${pid}/cmdline`).split('\0')[0] === binaryPath)
    .filter((pid) => {
      const parent = Number(/^\d+ \(.*\) \S+ (\d+)/.exec(read(`/proc/${pid}/stat`))?.[1] ?? 0);
      return parent <= 1 || !/node/.test(read(`/proc/${parent}/cmdline`));
    });
}

/** For the global tear-down: stops every noted or orphaned test server still running; answers how many. */
export async function killNotedTestServers(runDir: string, binaryPath?: string): Promise<number> {
  const dir = path.join(runDir, 'test-servers');
  const noted = fs.existsSync(dir) ? fs.readdirSync(dir).map(Number) : [];
  const orphans = binaryPath ? orphanedTestServers(binaryPath) : [];
  const stopped = await Promise.all([...new Set([...noted, ...orphans])].map((pid) => killTestServer(pid)));
  return stopped.filter(Boolean).length;
}
