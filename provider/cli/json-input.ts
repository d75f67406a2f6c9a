/**
 * Reads one input file's JSON against the schema of what a command takes. Each failure is one line that
 * names the file, what is wrong with it, and what to give instead; the other command's input (a state given
 * to review, a preview given to audit) is named as such.
 */
import type { z } from "zod";
import { CliFailure } from "./failure";

/** What a command's input is, and how to tell the other command's input apart. */
export interface InputKind<S extends z.ZodType> {
  /** Its schema: only the parts the command reads. */
  readonly schema: S;
  /** What it is, for "not <what>": "the JSON of a Pulumi preview". */
  readonly what: string;
  /** How to make it: "give the output of `pulumi preview --json --show-sames`". */
  readonly next: string;
  /** A top-level member only the other command's input has, and what to say of a file that has it. */
  readonly other: { readonly member: string; readonly says: string };
}

/** The JSON in `text`, read as `kind`; `source` names the file in every failure. */
export function readJsonInput<S extends z.ZodType>(
  source: string,
  text: string,
  kind: InputKind<S>,
): z.output<S> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new CliFailure(`${source}: not JSON (${(error as Error).message}): ${kind.next}.`);
  }
  if (typeof json === "object" && json !== null && kind.other.member in json) {
    throw new CliFailure(`${source}: ${kind.other.says}: ${kind.next}.`);
  }
  const parsed = kind.schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new CliFailure(
      `${source}: not ${kind.what} (${issue.path.join(".") || "the document"}: ${issue.message}): ${kind.next}.`,
    );
  }
  return parsed.data;
}
