import fs from 'node:fs';
import path from 'node:path';

/**
 * The vendors' own API documents (`shared/vendor/` beside the repository, see its README): Stripe's
 * fixtures, Adyen's OpenAPI files. `VENDOR_DOCS_DIR` names the folder; otherwise the nearest
 * `shared/vendor` above this file is used, so a checkout in a worktree finds it too.
 */
export function vendorDocumentPath(relative: string): string {
  const configured = process.env.VENDOR_DOCS_DIR;
  if (configured) return path.resolve(configured, relative);
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'shared', 'vendor', relative);
    if (fs.existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir)
      throw new Error(`vendor document ${relative} not found: set VENDOR_DOCS_DIR to the shared/vendor folder`);
  }
}

const cache = new Map<string, unknown>();

/** A vendor document parsed once per process. */
export function vendorDocument<T>(relative: string): T {
  if (!cache.has(relative)) cache.set(relative, JSON.parse(fs.readFileSync(vendorDocumentPath(relative), 'utf8')));
  return cache.get(relative) as T;
}
