import fs from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../../projectRoot';

/**
 * The vendors' own API documents (Stripe's fixtures, Adyen's OpenAPI files), kept unchanged in
 * `published/` beside this file (see its README). `VENDOR_DOCS_DIR` names another copy.
 */
export function vendorDocumentPath(relative: string): string {
  const candidates = [
    ...(process.env.VENDOR_DOCS_DIR ? [path.resolve(process.env.VENDOR_DOCS_DIR, relative)] : []),
    path.join(projectRoot, 'src', 'sandbox', 'vendors', 'published', relative),
  ];
  const found = candidates.find((candidate) => fs.existsSync(candidate));
  if (!found) throw new Error(`vendor document ${relative} not found (set VENDOR_DOCS_DIR); looked in ${candidates}`);
  return found;
}

const cache = new Map<string, unknown>();

/** A vendor document parsed once per process. */
export function vendorDocument<T>(relative: string): T {
  if (!cache.has(relative)) cache.set(relative, JSON.parse(fs.readFileSync(vendorDocumentPath(relative), 'utf8')));
  return cache.get(relative) as T;
}
