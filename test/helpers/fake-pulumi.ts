/**
 * A fake `pulumi` on PATH for the commands that run the user's Pulumi CLI (`config --show-secrets --json`,
 * `stack export`): it answers each stack from files the test writes, can print a line on stderr and fail,
 * and logs every call, so that a test sees which stacks' secrets were read, and in which order.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { delimiter, join } from "node:path";

/** The fake's program: plain JavaScript, run by this test run's node. */
const FAKE_PULUMI = String.raw`
const { appendFileSync, existsSync, readFileSync } = require("node:fs");
const { join } = require("node:path");
const args = process.argv.slice(2);
const dir = process.env.FAKE_PULUMI_DIR;
appendFileSync(join(dir, "calls.log"), JSON.stringify(args) + "\n");
const stack = args[args.indexOf("--stack") + 1];
const kind = args[0] === "config" ? "config" : "state";
const said = join(dir, stack + "." + kind + ".stderr");
if (existsSync(said)) process.stderr.write(readFileSync(said, "utf8"));
const answer = join(dir, stack + "." + kind + ".json");
if (!existsSync(answer)) process.exit(255);
process.stdout.write(readFileSync(answer, "utf8"));
`;

/** A fake Pulumi CLI in `dir`; `path` is a PATH that finds it (and this test run's node) first. */
export function fakePulumi(dir: string) {
  mkdirSync(dir, { recursive: true });
  const script = join(dir, "fake-pulumi.cjs");
  writeFileSync(script, FAKE_PULUMI);
  const bin = join(dir, "pulumi");
  writeFileSync(bin, `#!/bin/sh\nexec "${process.execPath}" "${script}" "$@"\n`);
  chmodSync(bin, 0o755);
  const log = join(dir, "calls.log");
  return {
    /** For `vi.stubEnv`: PATH and the fake's folder. */
    env: { PATH: [dir, process.env.PATH].join(delimiter), FAKE_PULUMI_DIR: dir },
    /** What `pulumi config --show-secrets --json --stack <stack>` prints: each key as secret or not. */
    config(stack: string, values: Record<string, { value: string; secret?: boolean }>) {
      writeFileSync(join(dir, `${stack}.config.json`), JSON.stringify(values));
    },
    /** What `pulumi stack export --stack <stack>` prints. */
    state(stack: string, exported: unknown) {
      writeFileSync(join(dir, `${stack}.state.json`), JSON.stringify(exported));
    },
    /** A line a command prints on stderr for `stack`; with no answer written, the command then fails. */
    stderr(stack: string, kind: "config" | "state", text: string) {
      writeFileSync(join(dir, `${stack}.${kind}.stderr`), text);
    },
    /** Every call so far, as its arguments. */
    calls(): string[][] {
      if (!existsSync(log)) return [];
      return readFileSync(log, "utf8")
        .trim()
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as string[]);
    },
  };
}
