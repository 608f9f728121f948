import type { NoProcessorWebhooks } from '../types';

/** Both sandbox types: no notifications to verify. */
export const sandboxWebhooks: NoProcessorWebhooks = {
  none: 'the sandbox acquirer answers every call with its final outcome (a step-up is read back with GET /authorizations/{id}), so it has nothing to report later',
};
