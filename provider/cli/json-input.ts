/**
 * Reads one input file's JSON against the schema of what a command takes. Each failure is one line that
 * names the file, what is wrong with it, and what to give instead; the other command's input (a state given
 * to review, a preview given to audit) is named as such. An input is bounded in bytes and in items, so that
 * no file makes a command run out of memory or time.
 */
import { createReadStream, readFileSync, statSync } from "node:fs";
import { resolve } from "node:path";
import type { z } from "zod";
import { inEnglish } from "../../contract/issues";
import type { CommandIo } from "./command";
import { CliFailure } from "./failure";

/** The most bytes a command reads from one file or from stdin: 256 MiB. */
export const MAX_INPUT_BYTES = 256 * 1024 * 1024;

/** The most steps of a preview, or resources of a state, a command reads from one input. */
export const MAX_INPUT_ITEMS = 200_000;

/**
 * The most objects and arrays one input may hold. Parsed JSON takes far more memory than its text: a file
 * of empty objects under MAX_INPUT_BYTES would take several GB once parsed. 200,000 steps of a real
 * preview (the one `npm run bench:review` makes) hold 2.6 million.
 */
export const MAX_INPUT_CONTAINERS = 8_000_000;

/** How many `{` and `[` `text` holds (those inside strings too: an upper bound), counting up to `max` + 1. */
function containersIn(text: string, max: number): number {
  let count = 0;
  for (const open of ["{", "["]) {
    for (let at = text.indexOf(open); at !== -1 && count <= max; at = text.indexOf(open, at + 1)) count++;
  }
  return count;
}

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
  /** Its list of items, which MAX_INPUT_ITEMS bounds, and what they are called ("steps"). */
  readonly items: { readonly of: (json: Record<string, unknown>) => unknown; readonly are: string };
}

const mib = (bytes: number) => `${Math.ceil(bytes / 1024 / 1024)} MiB`;

const tooLarge = (what: string, limit: number, next: string) =>
  new CliFailure(`${what}, more than a command reads (${mib(limit)}): ${next}.`);

/**
 * All of `stream` as text, refused as soon as it passes `maxBytes`, so that an endless or huge stdin or
 * pipe is never held in memory whole; `source` names it in the failure.
 */
export async function readStream(
  stream: AsyncIterable<Buffer | string>,
  maxBytes: number = MAX_INPUT_BYTES,
  source = "stdin",
): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    size += bytes.length;
    if (size > maxBytes) {
      throw tooLarge(`${source}: the input goes on`, maxBytes, "give the preview or state of one stack");
    }
    chunks.push(bytes);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** The text of `file` (`-`: stdin), resolved from the command's folder; `next` says how to make one. */
export async function readInputText(file: string, io: CommandIo, next: string): Promise<string> {
  if (file === "-") return io.stdin();
  const path = resolve(io.cwd, file);
  try {
    const stat = statSync(path);
    // A pipe or a device (`<(pulumi preview --json)`, /dev/stdin) has no size to check: read it bounded.
    if (!stat.isFile()) return await readStream(createReadStream(path), MAX_INPUT_BYTES, file);
    if (stat.size > MAX_INPUT_BYTES) throw tooLarge(`${file}: ${mib(stat.size)}`, MAX_INPUT_BYTES, next);
    return readFileSync(path, "utf8");
  } catch (error) {
    if (error instanceof CliFailure) throw error;
    throw new CliFailure(
      `${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): ${next}.`,
    );
  }
}

/** The JSON in `text`, read as `kind`; `source` names the file in every failure. */
export function readJsonInput<S extends z.ZodType>(
  source: string,
  text: string,
  kind: InputKind<S>,
): z.output<S> {
  if (containersIn(text, MAX_INPUT_CONTAINERS) > MAX_INPUT_CONTAINERS) {
    throw new CliFailure(
      `${source}: more than ${MAX_INPUT_CONTAINERS} objects and arrays, more than a command reads: ${kind.next}.`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new CliFailure(`${source}: not JSON (${(error as Error).message}): ${kind.next}.`);
  }
  if (typeof json === "object" && json !== null && kind.other.member in json) {
    throw new CliFailure(`${source}: ${kind.other.says}: ${kind.next}.`);
  }
  const items =
    typeof json === "object" && json !== null ? kind.items.of(json as Record<string, unknown>) : [];
  if (Array.isArray(items) && items.length > MAX_INPUT_ITEMS) {
    throw new CliFailure(
      `${source}: ${items.length} ${kind.items.are}, more than a command reads (${MAX_INPUT_ITEMS}): ${kind.next}.`,
    );
  }
  const parsed = kind.schema.safeParse(json, { error: inEnglish });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new CliFailure(
      `${source}: not ${kind.what} (${issue.path.join(".") || "the document"}: ${issue.message}): ${kind.next}.`,
    );
  }
  return parsed.data;
}
