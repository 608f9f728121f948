import { spawn } from 'node:child_process';
import { projectRoot } from '../../src/config';

export interface CommandRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command in the project folder as an operator would, collecting its output; unset variables are removed. */
export function runCommand(
  command: string,
  args: string[],
  env: Record<string, string | undefined> = {},
): Promise<CommandRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: projectRoot,
      env: Object.fromEntries(Object.entries({ ...process.env, ...env }).filter(([, value]) => value !== undefined)),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
