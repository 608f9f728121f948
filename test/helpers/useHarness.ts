import { startHarness, type Harness } from './harness';
import { useFixture } from './useFixture';

/**
 * The harness of the enclosing describe block (or file): started in a beforeAll and stopped in an
 * afterAll registered here (see `useFixture` for the order of hooks and reads out of time).
 */
export function useHarness(...options: Parameters<typeof startHarness>): Harness {
  return useFixture(
    'harness',
    () => startHarness(...options),
    (harness) => harness.stop(),
  );
}
