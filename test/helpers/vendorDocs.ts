import { vendorDocument, vendorDocumentPath } from '../../src/sandbox/vendors/documents';

export { vendorDocumentPath };

/** A vendor's API document (kept in src/sandbox/vendors/published), parsed. */
export function readVendorDocument(relative: string): Record<string, any> {
  return vendorDocument<Record<string, any>>(relative);
}
