/**
 * `service-pulumi review`: what the previews of one or more stacks do to deliveries and to each
 * organization's quota, as Markdown (or JSON) on stdout.
 */
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { credentialsOf } from "../client/config";
import { redact } from "../context/process";
import { credentialKey } from "../lifecycle/clients";
import { resolve as resolveSettings } from "../settings/resolve";
import type { Settings } from "../settings/value";
import { parseCommand } from "./args";
import type { CommandIo } from "./command";
import {
  BASE_URL_KEY,
  baseUrlSource,
  type CredentialFlags,
  clientForStack,
  credentialFlags,
  namedStacks,
  TOKEN_KEY,
} from "./credentials";
import { CliFailure, EXIT } from "./failure";
import { readInputText } from "./json-input";
import { listWebhooks, organizationListed } from "./listing";
import { filterViews } from "./objects";
import { readPreview, type StackPreview } from "./preview-json";
import { projectIn, stackConfig } from "./pulumi-cli";
import { type LiveListing, organizationsOf, reviewOf } from "./review-model";
import { reviewComment, reviewMarkdown } from "./review-render";
import { printable, shellCommand } from "./untrusted";

/** review's options and help. */
const reviewCommand = {
  name: "review",
  positionals: true,
  options: {
    format: { type: "string", default: "markdown" },
    live: { type: "boolean", default: false },
    token: { type: "string" },
    "base-url": { type: "string" },
    stack: { type: "string", multiple: true },
    stacks: { type: "string" },
    cwd: { type: "string" },
    output: { type: "string" },
  },
  help: `Usage: service-pulumi review [options] [preview.json ...]

Reads the JSON of \`pulumi preview --json --show-sames\`, one file per stack (- or no file: stdin), and
writes a Markdown report to stdout: per organization and stack, each Webhook and Domain change (create,
replace with the inputs that force it, delete, and how many are unchanged), what it does to deliveries
(which endpoint starts or stops receiving which records; whether a replace overlaps or leaves a gap), and
the organization's webhook quota after the change. Secrets are never read, so never printed.

Options:
  --format markdown|json  The report's format (default markdown).
  --output <file>         Write the whole report to <file> instead of stdout, however long it is. On
                          stdout, a report longer than a GitHub comment holds (65,536 characters) is
                          cut to a summary.
  --live                  Also list each organization's active webhooks (one listing each, pages of 20 at
                          10 requests per second), to count the quota and name the webhooks none of the
                          stacks knows of.

Credentials for --live, never taken from the previews (a pull request writes them):
  --token <token>         The API token. Else the service:token of a stack named with --stacks; else
                          SERVICE_API_TOKEN.
  --base-url <url>        The API base URL. Else the service:baseUrl of a stack named with --stacks; else
                          SERVICE_BASE_URL; else the local sandbox. A preview whose service:baseUrl is
                          another URL is refused before any request.
  --stacks <a,b,...>      Stacks of the Pulumi project in --cwd whose config is read
                          (\`pulumi config --show-secrets\`), for the previews of those stacks. A stack
                          only a preview names is never read. --stack <name> (repeatable) too.
  --cwd <dir>             The Pulumi project folder of --stacks (default: .).
  -h, --help              This help.

Exit codes: 0 the report was written; 2 a usage, input, credential or API error (one line on stderr).
`,
} as const;

async function readInput(file: string, io: CommandIo): Promise<StackPreview> {
  const text = await readInputText(
    file,
    io,
    `give a file written by \`pulumi preview --json --show-sames > ${file === "-" ? "preview.json" : file}\``,
  );
  return readPreview(file === "-" ? "stdin" : file, text);
}

/** The config of each stack the operator named, in the project in `cwd`, read before any request. */
function namedConfigs(
  stacks: readonly string[],
  cwd: string,
): { project?: string; configs: Map<string, Record<string, string>> } {
  const configs = new Map<string, Record<string, string>>();
  if (stacks.length === 0) return { configs };
  const project = projectIn(cwd);
  if (project === undefined) {
    throw new CliFailure(
      `service-pulumi review: --stacks reads the config of stacks of the project in ${cwd}, which holds no Pulumi.yaml: run in the project folder, or give --cwd <folder>.`,
    );
  }
  for (const stack of stacks) configs.set(stack, stackConfig(cwd, stack, `${project}/${stack}`));
  return { project, configs };
}

/**
 * The client of `preview`'s stack: from the flags, the config of the stack if the operator named it, or
 * the environment. Refused, before any request, when the preview names a base URL other than the one
 * this resolves to: a pull request must not choose where the token goes.
 */
function clientForPreview(
  preview: StackPreview,
  flags: CredentialFlags,
  config: Record<string, string> | undefined,
  io: CommandIo,
) {
  const tokenInConfig = preview.config[TOKEN_KEY] !== undefined;
  if (config === undefined && flags.token === undefined && tokenInConfig) {
    // The stack's name comes from the preview's URNs: quoted as one shell word, or not repeated at all.
    const flag = shellCommand(["--stacks", preview.stack]) ?? "--stacks <its name>";
    const name = `${flag} in project ${printable(preview.project)}'s folder (--cwd)`;
    if (credentialsOf({}, flags.settings).token === undefined) {
      throw new CliFailure(
        `${preview.label}: its token is in its stack config, which review reads only for a stack you name: give ${name}, --token, or SERVICE_API_TOKEN.`,
      );
    }
    io.stderr(
      `${preview.label}: its service:token is read only for a stack you name; using SERVICE_API_TOKEN instead (give ${name} to use the stack's).\n`,
    );
  }
  const client = clientForStack(preview.label, flags, config ?? {});
  const named = preview.config[BASE_URL_KEY];
  if (typeof named === "string" && named.replace(/\/+$/, "") !== client.options.baseUrl) {
    throw new CliFailure(
      `${preview.file}: the preview of ${preview.label} sets ${BASE_URL_KEY} to ${printable(named)}, but review sends a token only to the base URL configured here, ${client.options.baseUrl} (${baseUrlSource(flags, config ?? {})}), and nothing was sent: if the stack does move there, review the change without --live, or give --base-url yourself.`,
    );
  }
  return client;
}

/**
 * One listing per set of credentials: previews whose stacks share a token and base URL share it. Every
 * client is made, and every base URL checked, before the first request.
 */
async function liveListings(
  previews: readonly StackPreview[],
  flags: CredentialFlags,
  stacks: readonly string[],
  cwd: string,
  io: CommandIo,
): Promise<Map<string, LiveListing>> {
  const { project, configs } = namedConfigs(stacks, cwd);
  const clients = previews.map((preview) =>
    clientForPreview(
      preview,
      flags,
      preview.project === project ? configs.get(preview.stack) : undefined,
      io,
    ),
  );
  const byStack = new Map<string, LiveListing>();
  const byCredentials = new Map<string, LiveListing>();
  for (const [i, preview] of previews.entries()) {
    const client = clients[i]!;
    const key = credentialKey(client);
    let live = byCredentials.get(key);
    if (!live) {
      const webhooks = await listWebhooks(client, preview.label);
      live = {
        organization: organizationListed(webhooks.items),
        webhooks: webhooks.items.map((w) => ({
          uuid: w.webhook_uuid,
          endpoint: w.endpoint.value,
          channel: w.channel,
          filters: filterViews(w.filters),
        })),
      };
      byCredentials.set(key, live);
    }
    const owners = organizationsOf(preview);
    if (owners.length > 0 && live.organization !== undefined && !owners.includes(live.organization)) {
      throw new CliFailure(
        `${preview.label}: its webhooks belong to organization ${owners.join(" and ")}, but its token reaches organization ${live.organization}: give ${owners[0]}'s token (--token, the service:token of a stack named with --stacks, or SERVICE_API_TOKEN).`,
      );
    }
    byStack.set(preview.label, live);
  }
  return byStack;
}

/** Writes the whole report to `file`, from the command's folder. */
function writeReport(file: string, text: string, io: CommandIo): void {
  try {
    // Redacted as stdout is: the whole report holds values the input chose.
    writeFileSync(resolve(io.cwd, file), redact(text));
  } catch (error) {
    throw new CliFailure(
      `${file}: the report cannot be written (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): give --output a file in a folder you can write.`,
    );
  }
}

/** Runs review with `argv` (the arguments after `review`); resolves to the exit code. */
export async function runReview(
  argv: readonly string[],
  io: CommandIo,
  settings: Settings = resolveSettings({}),
): Promise<number> {
  const { values, positionals, help } = parseCommand(reviewCommand, argv);
  if (help) {
    io.stdout(reviewCommand.help);
    return EXIT.clean;
  }
  const format = values.format as string;
  if (format !== "markdown" && format !== "json") {
    throw new CliFailure(`service-pulumi review: --format ${format} is not a format: give markdown or json.`);
  }
  // Registered as secrets before any file is read, child process run or request sent.
  const flags = credentialFlags(values, settings);
  const files = positionals.length ? positionals : ["-"];
  const previews: StackPreview[] = [];
  for (const file of files) {
    const preview = await readInput(file, io);
    const twin = previews.find((p) => p.label === preview.label);
    if (twin) {
      throw new CliFailure(
        `${file}: a second preview of ${preview.label} (${twin.file} is the first): give one preview per stack.`,
      );
    }
    previews.push(preview);
  }
  const cwd = resolve(io.cwd, (values.cwd as string | undefined) ?? ".");
  const live = values.live ? await liveListings(previews, flags, namedStacks(values), cwd, io) : undefined;
  const review = reviewOf(previews, live);
  const output = values.output as string | undefined;
  if (format === "json") {
    const text = `${JSON.stringify(review, null, 2)}\n`;
    if (output === undefined) io.stdout(text);
    else writeReport(output, text, io);
  } else if (output === undefined) io.stdout(reviewComment(review));
  else writeReport(output, reviewMarkdown(review), io);
  return EXIT.clean;
}
