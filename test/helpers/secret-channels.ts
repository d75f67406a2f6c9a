/**
 * Every channel a user or a tool can read a secret from, for one command: what it printed, its `--json`,
 * and its `--event-log` (leaving aside the debug-level entries, in which the Node SDK itself logs every
 * RegisterResource answer); and the three ways a program can give a webhook's secret.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CommandResult, PulumiProject } from "./engine";

/**
 * How the e2e programs take the webhook secret (their `secretVia` setting): from `pulumi config set
 * --secret`, as a secret made in the program (`pulumi.secret(…)`, `Output.secret(…)`), or as a plain
 * string in the program. The programs read the value of the last two from PLANTED_SECRET_KEY, as a
 * literal in the program's source would be: the engine never sees where it came from.
 */
export const SECRET_WAYS = ["config", "secret", "plain"] as const;
export type SecretWay = (typeof SECRET_WAYS)[number];

/** Gives `project`'s programs the webhook secret `value` the way `way` says. */
export async function giveSecret(project: PulumiProject, way: SecretWay, value: string): Promise<void> {
  await project.config("secretVia", way);
  if (way === "config") {
    await project.config("webhookSecret", value, true);
    delete project.env.PLANTED_SECRET_KEY;
  } else {
    project.env.PLANTED_SECRET_KEY = value;
  }
}

/** The event log's entries as text, without the debug-level diagnostics. */
function eventLogWithoutDebug(path: string): string {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .filter((line) => {
      const event = JSON.parse(line) as { diagnosticEvent?: { severity?: string } };
      return event.diagnosticEvent?.severity !== "debug";
    })
    .join("\n");
}

/**
 * Runs `command` as a user does, then once more with `--json` and `--event-log`: what it printed the first
 * time, and the text of every channel.
 */
export async function everyChannel(
  project: PulumiProject,
  command: readonly string[],
): Promise<{ first: CommandResult; channels: string[] }> {
  const first = await project.run(command, { allowFailure: true });
  const dir = mkdtempSync(join(tmpdir(), "event-log-"));
  try {
    const log = join(dir, "events.jsonl");
    // --event-log exists only where PULUMI_DEBUG_COMMANDS is set.
    project.env.PULUMI_DEBUG_COMMANDS = "true";
    const json = await project.run([...command, "--json", "--event-log", log], { allowFailure: true });
    delete project.env.PULUMI_DEBUG_COMMANDS;
    if (!existsSync(log)) throw new Error(`no event log:\n${json.output}`);
    return { first, channels: [first.output, json.output, eventLogWithoutDebug(log)] };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Fails naming the channel and the secret when any channel holds any planted secret. */
export function expectNoneHolds(channels: readonly string[], planted: readonly string[]): void {
  channels.forEach((text, i) => {
    for (const secret of planted) {
      if (text.includes(secret)) throw new Error(`channel ${i} holds the planted secret ${secret}:\n${text}`);
    }
  });
}

/** Too short for API 2.0 (16 to 256 characters), and unlike anything else a command prints. */
const SHORT_SECRET = "Zq7tooShrt";

/**
 * The scenario for one way of giving the secret: a secret too short fails `pulumi preview` and `pulumi up`
 * with the rule and the field, spelled as `field` (the program's language), with no API call, nothing
 * created, and no channel or stored state holding the value.
 */
export async function expectShortSecretRefused(
  stage: { mark(): number; callsSince(mark: number): number; active(): Promise<string[]> },
  project: PulumiProject,
  way: SecretWay,
  field: string,
): Promise<void> {
  await giveSecret(project, way, SHORT_SECRET);
  const mark = stage.mark();
  const rule = new RegExp(
    `Webhook resource 'orders' has a problem: ${field} must be 16 to 256 characters on API 2\\.0 \\(got 10 characters\\): use a longer random key`,
  );
  for (const command of [["preview"], ["up", "--yes"]]) {
    const { first, channels } = await everyChannel(project, command);
    if (first.status === 0) throw new Error(`pulumi ${command.join(" ")} succeeded:\n${first.output}`);
    if (!rule.test(first.output))
      throw new Error(`pulumi ${command.join(" ")} did not print ${rule}:\n${first.output}`);
    expectNoneHolds(channels, [SHORT_SECRET]);
  }
  if (stage.callsSince(mark) !== 0)
    throw new Error(`${stage.callsSince(mark)} API calls for a refused input`);
  const active = await stage.active();
  if (active.length !== 0) throw new Error(`created ${active.join(", ")} from a refused input`);
  expectNoneHolds([JSON.stringify(await project.exported())], [SHORT_SECRET]);
}
