/**
 * `npm run sandbox`: the sandbox seeded for the quickstart, serving tools/quickstart/.well-known-files as the
 * stand-in for https://hooks.quickstart.test/ and accepting its deliveries. It listens on 8787 (the
 * client's default, which Pulumi.dev.yaml names) unless `--port <n>` or SERVICE_SANDBOX_PORT says otherwise.
 */
import { mkdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { DEFAULT_PORT, type SeedInput, startSandbox } from "@service/pulumi/sandbox";
import { findPulumiCli } from "./pulumi-cli";

const root = resolve(__dirname, "../../..");
const filesDir = join(root, "tools/quickstart/.well-known-files");
const HOSTNAME = "hooks.quickstart.test";
const PORT_VARIABLE = "SERVICE_SANDBOX_PORT";

/** Thrown for what the user typed; printed as one line without a stack trace. */
class UsageError extends Error {}

/** `--port` wins over SERVICE_SANDBOX_PORT, which wins over 8787. */
function chosenPort(argv: readonly string[], env: NodeJS.ProcessEnv): number {
  const { values } = parseArgs({ args: [...argv], options: { port: { type: "string" } }, strict: true });
  const [raw, source] =
    values.port !== undefined
      ? [values.port, "--port"]
      : env[PORT_VARIABLE]
        ? [env[PORT_VARIABLE], PORT_VARIABLE]
        : [String(DEFAULT_PORT), "default"];
  const port = Number(raw);
  // Port 0 (any free port) is refused: the stack config and the seed's host mapping must name the port.
  if (!/^\d+$/.test(raw) || port < 1 || port > 65535) {
    throw new UsageError(`${source} must be a port number from 1 to 65535, not "${raw}"`);
  }
  return port;
}

/** The lines that take a user from here to `pulumi up`, for the port the sandbox listens on. */
function nextSteps(url: string, port: number): string[] {
  const origin = `${url}/_sandbox/origin`;
  // Pulumi.dev.yaml names port 8787; any other port needs the two settings that carry it.
  const config =
    port === DEFAULT_PORT
      ? []
      : [
          `  pulumi config set service:baseUrl ${url} --stack dev`,
          `  pulumi config set service:hostOverrides '{"${HOSTNAME}":"${origin}"}' --stack dev`,
        ];
  const commands = [
    "  export PULUMI_BACKEND_URL=file://./.pulumi-state   # state stays in this clone (git-ignored)",
    "  export PULUMI_CONFIG_PASSPHRASE=quickstart          # the local backend encrypts secrets with it",
    "  pulumi stack init dev                               # once",
    ...config,
    "  pulumi up --stack dev",
  ];
  if (findPulumiCli()) return ["In another terminal, in this folder:", ...commands];
  return [
    "The Pulumi CLI is not on PATH. Install it (https://www.pulumi.com/docs/install/), or build it here with `npm run engine` and put the folder it prints first on PATH (docs/engine.md); then in another terminal, in this folder:",
    ...commands,
    "Meanwhile the sandbox answers the API directly, for example:",
    `  curl -s -H 'Authorization: Token quickstart-token' -H 'Api-Version: 1.4' ${url}/v1/health`,
  ];
}

async function main(): Promise<void> {
  const port = chosenPort(process.argv.slice(2), process.env);
  mkdirSync(filesDir, { recursive: true });
  // The file backend of the printed steps stores state here; it must exist before `pulumi stack init`.
  mkdirSync(join(root, ".pulumi-state"), { recursive: true });
  const seed = JSON.parse(
    readFileSync(join(root, "tools/quickstart/sandbox-seed.json"), "utf8"),
  ) as SeedInput;
  // The sandbox delivers to, and fetches verification files from, its own origin route: on this port.
  const hosts = { ...seed.hosts, [HOSTNAME]: `http://127.0.0.1:${port}/_sandbox/origin` };
  const sandbox = await startSandbox({ port, seed: { ...seed, hosts }, serveDir: filesDir });
  // Before the greeting, so that a Ctrl-C right after it still closes the sandbox cleanly.
  const stop = () => void sandbox.close().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  process.stdout.write(`service-sandbox listening on ${sandbox.url}\n`);
  process.stdout.write(
    [
      "organization: quickstart   API token: quickstart-token",
      `admin routes: ${sandbox.url}/_sandbox   deliveries: ${sandbox.url}/_sandbox/deliveries`,
      ...nextSteps(sandbox.url, port),
      "Ctrl-C stops the sandbox.",
      "",
    ].join("\n"),
  );
}

/** One line on stderr, naming what failed and what to do; no stack trace for a busy port or a bad flag. */
function explain(error: unknown): string {
  const message = (error instanceof Error ? error.message : String(error)).replace(/\s*\n\s*/g, " ");
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const busy = code === "EADDRINUSE" || /EADDRINUSE|in use/i.test(message);
  const hint = busy
    ? `; stop what uses it, or pick another port: npm run sandbox -- --port <n> (or ${PORT_VARIABLE}=<n>)`
    : error instanceof UsageError || error instanceof TypeError
      ? "; usage: npm run sandbox -- [--port <n>]"
      : "";
  return `npm run sandbox: ${message}${hint}\n`;
}

main().catch((error: unknown) => {
  process.stderr.write(explain(error));
  process.exit(1);
});
