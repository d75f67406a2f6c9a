/** The member of `item` at a dotted path such as `status.result.id`, or undefined when any step is missing. */
export function lookup(item: Record<string, unknown>, dotted: string): unknown {
  let value: unknown = item;
  for (const part of dotted.split(".")) {
    if (typeof value !== "object" || value === null) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}
