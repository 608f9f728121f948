import fs from 'node:fs';
import path from 'node:path';

/**
 * The vendors' own API documents (MIT, copied unchanged from the team's shared/vendor; see the
 * README beside them) are kept in the repository so a fresh clone tests against them offline.
 * VENDOR_DOCS_DIR names another copy.
 */
export function vendorDocumentPath(relative: string): string {
  const candidates: string[] = [];
  if (process.env.VENDOR_DOCS_DIR) candidates.push(path.join(process.env.VENDOR_DOCS_DIR, relative));
  candidates.push(path.join(__dirname, '..', '..', 'src', 'sandbox', 'vendors', 'published', relative));
  const found = candidates.find((candidate) => fs.existsSync(candidate));
  if (!found)
    throw new Error(`vendor document ${relative} not found (set VENDOR_DOCS_DIR); looked in ${candidates[0]}`);
  return found;
}

export function readVendorDocument(relative: string): Record<string, any> {
  return JSON.parse(fs.readFileSync(vendorDocumentPath(relative), 'utf8')) as Record<string, any>;
}
