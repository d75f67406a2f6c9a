import type { z } from "zod";
import { formatPath } from "../api/path";
import { knownMembers } from "./unknowns";

export interface CheckFailure {
  readonly property: string;
  readonly reason: string;
}

/**
 * Validates the known members of a resource's inputs with a zod object schema. Members that are still
 * unknown at preview are left out of validation and passed through untouched; a failure names the
 * property path and the rule.
 */
export function checkInputs<T extends Record<string, unknown>>(
  schema: z.ZodObject,
  news: Record<string, unknown>,
): { inputs: T; failures: CheckFailure[] } {
  const known = knownMembers(news);
  const mask = Object.fromEntries(
    Object.keys(schema.shape)
      .filter((k) => !(k in news) || k in known)
      .map((k) => [k, true]),
  );
  const parsed = schema.pick(mask as Record<string, true>).safeParse(known);
  if (!parsed.success) {
    return {
      inputs: news as T,
      failures: parsed.error.issues.map((issue) => ({
        property: formatPath(issue.path) || "(inputs)",
        reason: issue.message,
      })),
    };
  }
  return { inputs: { ...news, ...(parsed.data as object) } as T, failures: [] };
}
