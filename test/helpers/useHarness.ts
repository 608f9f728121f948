import { startHarness, type Harness } from './harness';

/**
 * The harness of the enclosing describe block (or file): started in a beforeAll, stopped in an
 * afterAll, both registered here. Jest runs hooks of one block in the order they are declared, so a
 * beforeAll declared after this call finds the harness started, and an afterAll declared after it
 * runs once the harness has stopped.
 *
 * The answer stands for the harness itself (`harness.db`, `call(harness, …)`); used before the
 * beforeAll ran or after the afterAll, it throws instead of reading `undefined`.
 */
export function useHarness(...options: Parameters<typeof startHarness>): Harness {
  let current: Harness | undefined;
  let stopped = false;
  beforeAll(async () => {
    current = await startHarness(...options);
  });
  afterAll(async () => {
    const harness = current;
    current = undefined;
    stopped = true;
    await harness?.stop();
  });
  const started = (key: PropertyKey): Harness => {
    if (current) return current;
    const when = stopped
      ? 'after its afterAll stopped it'
      : 'before its beforeAll started it (at describe time, or the start failed)';
    throw new Error(`useHarness: harness.${String(key)} read ${when}`);
  };
  return new Proxy({} as Harness, {
    // Not a promise: `await` and jest look for `then` without meaning to use the harness.
    get: (_target, key) => (key === 'then' ? undefined : Reflect.get(started(key), key)),
    has: (_target, key) => key in started(key),
    ownKeys: () => Reflect.ownKeys(started('ownKeys')),
    getOwnPropertyDescriptor: (_target, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(started(key), key);
      return descriptor && { ...descriptor, configurable: true };
    },
  });
}
