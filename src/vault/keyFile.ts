import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Writes a key file (0600) unless one is there already. Its folder is 0711: it also holds embedded
 * Postgres, whose server user must pass through it. Written whole to a private temp file, then
 * linked into place: link fails if the key exists, so processes starting together keep one key
 * and never read a half-written one.
 */
export function writeKeyFileOnce(file: string, contents: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o711 });
  const temp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  fs.writeFileSync(temp, contents, { mode: 0o600 });
  try {
    fs.linkSync(temp, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    fs.rmSync(temp, { force: true });
  }
}
