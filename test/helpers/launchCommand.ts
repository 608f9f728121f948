import fs from 'node:fs';
import path from 'node:path';

/**
 * The node flags and environment an `npm run <script>` line gives the engine (heap cap, malloc
 * arenas), so tests, the soak and the chaos run start the engine exactly as `npm start` does.
 * Understands the one shape the scripts use: `NAME=value … node <flags> <file>`, where a value may
 * be `${NAME:-default}` as sh expands it.
 */
export function launchCommandOf(
  script: string,
  env: NodeJS.ProcessEnv,
  packageJsonPath = path.join(__dirname, '..', '..', 'package.json'),
): { args: string[]; env: Record<string, string> } {
  const scripts = (JSON.parse(fs.readFileSync(packageJsonPath, 'utf8')) as { scripts: Record<string, string> }).scripts;
  const line = scripts[script];
  if (!line) throw new Error(`package.json has no script "${script}"`);
  const tokens = line
    .trim()
    .split(/\s+/)
    .map((token) => expand(token, env));
  const nodeAt = tokens.indexOf('node');
  if (nodeAt < 0) throw new Error(`script "${script}" does not run node: ${line}`);
  const assignments = tokens.slice(0, nodeAt).map((token) => {
    const match = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(token);
    if (!match) throw new Error(`script "${script}": expected NAME=value before node, got ${token}`);
    return [match[1]!, match[2]!] as const;
  });
  return { args: tokens.slice(nodeAt + 1), env: Object.fromEntries(assignments) };
}

function expand(token: string, env: NodeJS.ProcessEnv): string {
  return token.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*):-([^}]*)\}/g, (_, name: string, fallback: string) => {
    const value = env[name];
    return value === undefined || value === '' ? fallback : value;
  });
}
