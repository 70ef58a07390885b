// Suites name their server, teams or database where they declare them, though only a beforeAll
// hook (which runs after the describe body) can create them.

/**
 * Stands for the object `current()` returns, read anew on every access; `current()` is expected
 * to have one by the time a test or a later hook touches it.
 */
export function late<T extends object>(what: string, current: () => T | undefined): T {
  const target = (): T => {
    const value = current();
    if (value === undefined) throw new Error(`${what} is used before the beforeAll hook that creates it ran`);
    return value;
  };
  return new Proxy({} as T, {
    get: (_proxy, key) => Reflect.get(target(), key),
    has: (_proxy, key) => Reflect.has(target(), key),
    ownKeys: () => Reflect.ownKeys(target()),
    getOwnPropertyDescriptor: (_proxy, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(target(), key);
      // the proxy's own target is empty, so it may only report configurable properties
      return descriptor && { ...descriptor, configurable: true };
    },
  });
}
