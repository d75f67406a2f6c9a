import { controlCharacterProblem } from "../contract/control-characters";
import type { FieldProblem } from "../contract/errors";

/**
 * The first string in a request input (a JSON body, path parameters or query) that holds a control
 * character, with where it sits, or undefined when there is none. Every string input is checked, the
 * members a route ignores included, so no control character is ever stored or echoed.
 */
export function controlCharacterIn(value: unknown, path = ""): FieldProblem | undefined {
  if (typeof value === "string") {
    const problem = controlCharacterProblem(value);
    return problem ? { field: path || "(body)", message: problem } : undefined;
  }
  if (typeof value !== "object" || value === null) return undefined;
  for (const [key, member] of Object.entries(value)) {
    const where = Array.isArray(value) ? `${path}[${key}]` : path ? `${path}.${key}` : key;
    const found = controlCharacterIn(member, where);
    if (found) return found;
  }
  return undefined;
}
