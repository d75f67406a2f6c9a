/**
 * During `pulumi preview` the engine hands check and diff this sentinel in place of any value that is not
 * known yet, at any depth. It must never reach the API.
 */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export function containsUnknown(value: unknown): boolean {
  if (value === UNKNOWN) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (typeof value === "object" && value !== null) return Object.values(value).some(containsUnknown);
  return false;
}

/** The top-level members of `inputs` that are fully known. */
export function knownMembers(inputs: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(inputs).filter(([, v]) => !containsUnknown(v)));
}
