/**
 * `build`, called once per distinct argument list and remembered. The request schemas are immutable
 * and depend only on a version and a kind, while building one costs far more than using it: the
 * sandbox validates every request with them.
 */
export function memoize<A extends readonly string[], R>(build: (...args: A) => R): (...args: A) => R {
  const built = new Map<string, R>();
  return (...args: A): R => {
    const key = args.join("\u0000");
    let value = built.get(key);
    if (value === undefined) {
      value = build(...args);
      built.set(key, value);
    }
    return value;
  };
}
