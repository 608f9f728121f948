import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The time-skipping test server ignores SIGTERM, and the SDK kills it only in `teardown()`: a jest
 * worker that ends any other way (killed for its memory, a crash, a forced exit) leaves it running.
 * Each one started is noted in the run's folder (TEST_RUN_DIR, made by the global set-up); the
 * global tear-down SIGKILLs whatever is noted and still alive.
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

/** SIGKILL, only while the pid is still a test server (not a reused pid). */
export function killTestServer(pid: number): boolean {
  let args = '';
  try {
    args = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return false;
  }
  if (!isTestServer(args)) return false;
  try {
    process.kill(pid, 'SIGKILL');
    return true;
  } catch {
    return false;
  }
}

/** For the global tear-down: kills every noted test server still running; answers how many. */
export function killNotedTestServers(runDir: string): number {
  const dir = path.join(runDir, 'test-servers');
  if (!fs.existsSync(dir)) return 0;
  return fs.readdirSync(dir).filter((name) => killTestServer(Number(name))).length;
}
