import fs from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../../src/projectRoot';

/**
 * The vendors' own API documents (Stripe's fixtures, Adyen's OpenAPI files), kept unchanged in the
 * repository in `published/` beside this file (see its README for where each came from).
 */
export function vendorDocumentPath(relative: string): string {
  const file = path.join(projectRoot, 'simulators', 'vendors', 'published', relative);
  if (!fs.existsSync(file)) throw new Error(`vendor document ${relative} not found at ${file}`);
  return file;
}

const cache = new Map<string, unknown>();

/** A vendor document parsed once per process. */
export function vendorDocument<T>(relative: string): T {
  if (!cache.has(relative)) cache.set(relative, JSON.parse(fs.readFileSync(vendorDocumentPath(relative), 'utf8')));
  return cache.get(relative) as T;
}
