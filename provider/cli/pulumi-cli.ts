/**
 * The user's own Pulumi CLI, run in a project folder with the user's backend and environment: the stack
 * config the provider would read (`pulumi config --show-secrets --json`) and a stack's state
 * (`pulumi stack export`). What these print holds secrets: it is parsed, never printed.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { inEnglish } from "../../contract/issues";
import { rememberSecret } from "../context/process";
import { SETTING_ROWS, stackKey } from "../settings/table";
import { CliFailure } from "./failure";
import { MAX_INPUT_BYTES } from "./json-input";

/** Runs `pulumi <args>` in `cwd` and returns its stdout; `what` names the object in a failure. */
function runPulumi(args: readonly string[], cwd: string, what: string): string {
  try {
    return execFileSync("pulumi", [...args, "--non-interactive"], {
      cwd,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      maxBuffer: MAX_INPUT_BYTES,
    });
  } catch (error) {
    const failure = error as NodeJS.ErrnoException & { stderr?: string };
    if (failure.code === "ENOBUFS") {
      throw new CliFailure(
        `${what}: \`pulumi ${args.join(" ")}\` printed more than a command reads (${MAX_INPUT_BYTES / 1024 / 1024} MiB): give its state with --state, or audit its stacks one by one.`,
      );
    }
    if (failure.code === "ENOENT") {
      throw new CliFailure(
        `${what}: the Pulumi CLI is not on PATH: install it (https://www.pulumi.com/docs/install/), or give the state with --state and the token with --token.`,
      );
    }
    // Printed through the command's own stderr, which hides every secret registered before this ran.
    const said =
      `${failure.stderr ?? ""}`
        .trim()
        .split("\n")
        .find((l) => l.trim()) ?? "no message";
    throw new CliFailure(
      `${what}: \`pulumi ${args.join(" ")}\` failed in ${cwd}: ${said.replace(/^error: /, "")}: check the stack name, the backend (pulumi login) and PULUMI_CONFIG_PASSPHRASE.`,
    );
  }
}

/** The name of the Pulumi project in `dir` (its Pulumi.yaml), or undefined when there is none. */
export function projectIn(dir: string): string | undefined {
  for (const file of ["Pulumi.yaml", "Pulumi.yml"]) {
    const path = join(dir, file);
    if (existsSync(path)) return /^name:\s*["']?([^"'\s#]+)/m.exec(readFileSync(path, "utf8"))?.[1];
  }
  return undefined;
}

const ConfigJson = z.record(
  z.string(),
  z.looseObject({ value: z.unknown().optional(), secret: z.boolean().optional() }),
);

/** The stack config keys of the settings that hold a secret (`service:token`), however a stack sets them. */
const SECRET_KEYS = new Set(
  SETTING_ROWS.flatMap(([, s]) => (s.secret && s.config ? [stackKey(s.config)] : [])),
);

/**
 * A stack's config as the provider reads it, secrets decrypted: key (`service:token`) to string value.
 * Each secret value, and the value of each setting that holds a secret even where the stack sets it in
 * plain text, is registered as a secret before anything else runs, so that no line repeats it.
 */
export function stackConfig(cwd: string, stack: string, label: string): Record<string, string> {
  const out = runPulumi(["config", "--show-secrets", "--json", "--stack", stack], cwd, label);
  let json: unknown;
  try {
    json = JSON.parse(out);
  } catch {
    json = undefined;
  }
  const parsed = ConfigJson.safeParse(json, { error: inEnglish });
  if (!parsed.success) {
    throw new CliFailure(
      `${label}: \`pulumi config --json\` printed no config object: upgrade the Pulumi CLI.`,
    );
  }
  return Object.fromEntries(
    Object.entries(parsed.data).flatMap(([key, { value, secret }]) => {
      if (value === undefined) return [];
      const text = typeof value === "string" ? value : JSON.stringify(value);
      if (secret || SECRET_KEYS.has(key)) rememberSecret(text);
      return [[key, text]];
    }),
  );
}
/** `pulumi stack export --stack <stack>` in `cwd`: the state's JSON text. */
export function exportStack(cwd: string, stack: string, label: string): string {
  return runPulumi(["stack", "export", "--stack", stack], cwd, label);
}
