import fs from 'node:fs';
import path from 'node:path';

/**
 * The folder holding the engine's package.json, found by walking up from `from`. Not a fixed
 * number of `..`: the same modules run from their TypeScript sources (tests, tsx) and compiled
 * under dist/ (`npm start`), one level deeper.
 */
export function findProjectRoot(from: string): string {
  for (let dir = path.resolve(from); ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

export const projectRoot = findProjectRoot(__dirname);
