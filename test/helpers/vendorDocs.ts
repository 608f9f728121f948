import fs from 'node:fs';
import path from 'node:path';

/**
 * The vendors' API documents (`shared/vendor/`, see its README) live beside the repository, not in
 * it: `../shared/vendor` from the main checkout, further up from a worktree. VENDOR_DOCS_DIR names
 * the folder directly.
 */
export function vendorDocumentPath(relative: string): string {
  const candidates: string[] = [];
  if (process.env.VENDOR_DOCS_DIR) candidates.push(path.join(process.env.VENDOR_DOCS_DIR, relative));
  for (let dir = path.resolve(__dirname, '../..'); ; dir = path.dirname(dir)) {
    candidates.push(path.join(dir, 'shared', 'vendor', relative));
    if (path.dirname(dir) === dir) break;
  }
  const found = candidates.find((candidate) => fs.existsSync(candidate));
  if (!found)
    throw new Error(`vendor document ${relative} not found (set VENDOR_DOCS_DIR); looked in ${candidates[0]}`);
  return found;
}

export function readVendorDocument(relative: string): Record<string, any> {
  return JSON.parse(fs.readFileSync(vendorDocumentPath(relative), 'utf8')) as Record<string, any>;
}
