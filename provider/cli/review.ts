/**
 * `service-pulumi review`: what the previews of one or more stacks do to deliveries and to each
 * organization's quota, as Markdown (or JSON) on stdout.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { credentialsOf } from "../client/config";
import { parseCommand } from "./args";
import { BASE_URL_KEY, clientForStack, configInFolder, TOKEN_KEY } from "./credentials";
import { CliFailure, EXIT } from "./failure";
import type { CommandIo } from "./io";
import { listWebhooks, organizationListed } from "./listing";
import { filterViews } from "./objects";
import { readPreview, type StackPreview } from "./preview-json";
import { projectIn } from "./pulumi-cli";
import { type LiveListing, organizationsOf, reviewOf } from "./review-model";
import { reviewMarkdown } from "./review-render";

/** review's options and help. */
const reviewCommand = {
  name: "review",
  positionals: true,
  options: {
    format: { type: "string", default: "markdown" },
    live: { type: "boolean", default: false },
    token: { type: "string" },
    "base-url": { type: "string" },
    cwd: { type: "string" },
  },
  help: `Usage: service-pulumi review [options] [preview.json ...]

Reads the JSON of \`pulumi preview --json --show-sames\`, one file per stack (- or no file: stdin), and
writes a Markdown report to stdout: per organization and stack, each Webhook and Domain change (create,
replace with the inputs that force it, delete, and how many are unchanged), what it does to deliveries
(which endpoint starts or stops receiving which records; whether a replace overlaps or leaves a gap), and
the organization's webhook quota after the change. Secrets are never read, so never printed.

Options:
  --format markdown|json  The report's format (default markdown).
  --live                  Also list each organization's active webhooks (one listing each, pages of 20 at
                          10 requests per second), to count the quota and name the webhooks none of the
                          stacks knows of. Credentials are resolved as the provider resolves them.
  --token <token>         The API token (default: the stack's service:token, then SERVICE_API_TOKEN).
  --base-url <url>        The API base URL (default: the stack's service:baseUrl, then SERVICE_BASE_URL).
  --cwd <dir>             The Pulumi project folder, where a stack's config is read (default: .).
  -h, --help              This help.

Exit codes: 0 the report was written; 2 a usage, input, credential or API error (one line on stderr).
`,
} as const;

async function readInput(file: string, io: CommandIo): Promise<StackPreview> {
  if (file === "-") return readPreview("stdin", await io.stdin());
  let text: string;
  try {
    text = readFileSync(resolve(io.cwd, file), "utf8");
  } catch (error) {
    throw new CliFailure(
      `${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): give a file written by \`pulumi preview --json --show-sames > ${file}\`.`,
    );
  }
  return readPreview(file, text);
}

/** One listing per organization: a stack whose organization another stack's listing showed reuses it. */
async function liveListings(
  previews: readonly StackPreview[],
  flags: { token?: string | undefined; baseUrl?: string | undefined },
  cwd: string,
  io: CommandIo,
): Promise<Map<string, LiveListing>> {
  const byStack = new Map<string, LiveListing>();
  const byOrganization = new Map<string, LiveListing>();
  for (const preview of previews) {
    const owners = organizationsOf(preview);
    const reused = owners.length === 0 ? undefined : byOrganization.get(owners[0]!);
    if (reused) {
      byStack.set(preview.label, reused);
      continue;
    }
    const config: Record<string, string> = {};
    const baseUrl = preview.config[BASE_URL_KEY];
    if (typeof baseUrl === "string") config[BASE_URL_KEY] = baseUrl;
    // The preview masks the token: read it where the provider does, from the stack's config.
    if (flags.token === undefined && preview.config[TOKEN_KEY] !== undefined) {
      const token = configInFolder(cwd, preview, io)?.[TOKEN_KEY];
      if (token !== undefined) config[TOKEN_KEY] = token;
      else if (credentialsOf({}).token === undefined) {
        throw new CliFailure(
          `${preview.label}: its token is in its stack config, which is read in project ${preview.project}'s folder, but ${cwd} is not that folder: give --cwd <${preview.project}'s folder>, --token, or SERVICE_API_TOKEN.`,
        );
      } else if (projectIn(cwd) !== preview.project) {
        io.stderr(
          `${preview.label}: its service:token is read in project ${preview.project}'s folder, not in ${cwd}; using SERVICE_API_TOKEN instead (give --cwd to use the stack's).\n`,
        );
      }
    }
    const client = clientForStack(preview.label, flags, config);
    const webhooks = await listWebhooks(client, preview.label);
    const live: LiveListing = {
      organization: organizationListed(webhooks.items),
      webhooks: webhooks.items.map((w) => ({
        uuid: w.webhook_uuid,
        endpoint: w.endpoint.value,
        channel: w.channel,
        filters: filterViews(w.filters),
      })),
    };
    if (owners.length > 0 && live.organization !== undefined && !owners.includes(live.organization)) {
      throw new CliFailure(
        `${preview.label}: its webhooks belong to organization ${owners.join(" and ")}, but its token reaches organization ${live.organization}: give ${owners[0]}'s token (--token, the stack's service:token or SERVICE_API_TOKEN).`,
      );
    }
    byStack.set(preview.label, live);
    if (live.organization !== undefined) byOrganization.set(live.organization, live);
  }
  return byStack;
}

/** Runs review with `argv` (the arguments after `review`); resolves to the exit code. */
export async function runReview(argv: readonly string[], io: CommandIo): Promise<number> {
  const { values, positionals, help } = parseCommand(reviewCommand, argv);
  if (help) {
    io.stdout(reviewCommand.help);
    return EXIT.clean;
  }
  const format = values.format as string;
  if (format !== "markdown" && format !== "json") {
    throw new CliFailure(`service-pulumi review: --format ${format} is not a format: give markdown or json.`);
  }
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
  const flags = {
    token: values.token as string | undefined,
    baseUrl: values["base-url"] as string | undefined,
  };
  const live = values.live ? await liveListings(previews, flags, cwd, io) : undefined;
  const review = reviewOf(previews, live);
  io.stdout(format === "json" ? `${JSON.stringify(review, null, 2)}\n` : reviewMarkdown(review));
  return EXIT.clean;
}
