import { adyenKit } from './adyen';
import { sandboxKit } from './sandbox';
import { stripeKit } from './stripe';
import type { ProcessorKit } from './types';

/** Every processor type the contract suite runs against, one line each. */
// prettier-ignore
export const processorKits: readonly ProcessorKit[] = [
  sandboxKit('sandbox'),
  sandboxKit('sandbox_hosted3ds'),
  stripeKit(),
  adyenKit(),
];
