/**
 * A value the enclosing describe block (or file) makes in a beforeAll and, with `release`, lets go
 * of in an afterAll, both registered here. Jest runs hooks of one block in the order they are
 * declared: a beforeAll declared after this call finds the value made, and an afterAll declared
 * after it runs once the value is released.
 *
 * The answer stands for the value itself (`harness.db`, `shop.storeId`); read before the beforeAll
 * ran or after the afterAll, it throws instead of reading `undefined`.
 */
export function useFixture<T extends object>(
  name: string,
  make: () => Promise<T>,
  release?: (value: T) => Promise<void>,
): T {
  let current: T | undefined;
  let released = false;
  beforeAll(async () => {
    current = await make();
  });
  afterAll(async () => {
    const value = current;
    current = undefined;
    released = true;
    if (value && release) await release(value);
  });
  const made = (key: PropertyKey): T => {
    if (current) return current;
    const when = released
      ? 'after its afterAll released it'
      : 'before its beforeAll made it (at describe time, or making it failed)';
    throw new Error(`${name}.${String(key)} read ${when}`);
  };
  return new Proxy({} as T, {
    // Not a promise: `await` and jest look for `then` without meaning to use the value.
    get: (_target, key) => (key === 'then' ? undefined : Reflect.get(made(key), key)),
    has: (_target, key) => key in made(key),
    ownKeys: () => Reflect.ownKeys(made('ownKeys')),
    getOwnPropertyDescriptor: (_target, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(made(key), key);
      return descriptor && { ...descriptor, configurable: true };
    },
  });
}
