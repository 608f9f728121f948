import { vendorDocument, vendorDocumentPath } from '../../simulators/vendors/documents';

export { vendorDocumentPath };

/** A vendor's API document (kept in simulators/vendors/published), parsed. */
export function readVendorDocument(relative: string): Record<string, any> {
  return vendorDocument<Record<string, any>>(relative);
}
