/**
 * `npm run test:openapi`: schemathesis, a property-based API tester from PyPI, run against the sandbox
 * with the OpenAPI document the sandbox serves (the package's openapi.json). It generates requests for
 * every route from the document, valid and invalid, and runs schemathesis's default checks, all of them,
 * as an outsider would: no server error, no response the document does not allow (status, content type,
 * headers, body), valid data accepted, invalid data refused, the token required, a deactivated webhook
 * gone. Its settings are those of schemathesis.toml at the repository root (bounded in examples per route
 * and in time, a fixed seed, and the statuses that rules of state add), which a plain `schemathesis run`
 * from the root reads too. schemathesis is pinned and lives in a virtualenv in the user's cache,
 * installed once.
 *
 * Options, each overriding schemathesis.toml: --max-examples <n> per route, --max-time <seconds> for the
 * whole run, --seed <n> (another seed explores other inputs).
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { parseArgs } from "node:util";
import { Agent, setGlobalDispatcher } from "undici";
import { pythonTool } from "../release/python.mts";

const SCHEMATHESIS_VERSION = "4.32.5";

const root = join(import.meta.dirname, "../..");
/** The run's settings, which an outsider's run from the repository root reads too. */
const CONFIG = join(root, "schemathesis.toml");

const { values } = parseArgs({
  options: {
    "max-examples": { type: "string" },
    "max-time": { type: "string" },
    seed: { type: "string" },
  },
});
/** The options given, which override schemathesis.toml's. */
const overrides = Object.entries(values).flatMap(([name, value]) =>
  value === undefined ? [] : [`--${name}`, value],
);
/** The time the run is given, which stops itself then: past twice that it is stuck, and is stopped. */
const maxTime = Number(values["max-time"] ?? /^max-time\s*=\s*(\d+)/m.exec(readFileSync(CONFIG, "utf8"))![1]);

const started = performance.now();
const seconds = () => ((performance.now() - started) / 1000).toFixed(1);

const cache = join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "service-pulumi");
const python = pythonTool(
  `schemathesis-${SCHEMATHESIS_VERSION}`,
  `schemathesis==${SCHEMATHESIS_VERSION}`,
  cache,
);
process.stdout.write(`schemathesis ${SCHEMATHESIS_VERSION} ready after ${seconds()} s\n`);

const { startSandbox } = (await import(
  join(root, "dist/sandbox/index.js")
)) as typeof import("../../sandbox/index.ts");
const ORGANIZATION = "acme";
// Made up for this run: the sandbox lives only as long as it.
const token = `schemathesis-${randomBytes(12).toString("hex")}`;
const sandbox = await startSandbox({
  seed: {
    organizations: [
      { name: ORGANIZATION, users: ["acme-ann", "acme-bo"], tokens: [{ token, webhooks: true }] },
      { name: "other", tokens: [{ token: `other-${token}` }] },
    ],
  },
  // Every request reaches its route: the limiter's 429 is documented, and would hide the rest.
  settings: { rateLimitPerSecond: 0 },
});

/** Sessions for the searches to find, of every shape an item takes (spec 2.2, 2.3). */
function seedSessions(): void {
  const session = (
    kind: "authentication" | "fingerprint",
    item: Record<string, unknown> = {},
    organization = ORGANIZATION,
  ) => sandbox.upsertSession({ organization, kind, item }).service_id;
  session("authentication");
  session("authentication", { activity: { form_factor: "lightbox" } });
  session("authentication", { status: { result: { id: "unidentified", final: false, reason: "blurry" } } });
  const parent = session("fingerprint");
  session("fingerprint", { activity: { mode: "compare" }, fingerprint_parent: { service_id: parent } });
  // A parent the caller does not own: `fingerprint_parent: {}` and a warning.
  const foreign = session("fingerprint", {}, "other");
  session("fingerprint", { activity: { mode: "compare" }, fingerprint_parent: { service_id: foreign } });
}

// schemathesis keeps a cache of crashes in its working folder: a throwaway one, not the repository.
const workDir = mkdtempSync(join(tmpdir(), "service-pulumi-schemathesis-"));
/**
 * The host of each webhook create's example in the document, registered to the organization as if
 * verified, so that schemathesis's sending of the example makes a webhook, whose answers, listings and
 * deactivation are then checked too.
 */
async function registerExampleHosts(): Promise<void> {
  const document = (await (await fetch(`${sandbox.url}/openapi.json`)).json()) as {
    paths: Record<
      string,
      Record<string, { requestBody?: { content: Record<string, { example?: unknown }> } }>
    >;
  };
  const caller = sandbox.store.tokens.get(token)!;
  for (const operation of Object.values(document.paths).flatMap((item) => Object.values(item))) {
    const example = operation.requestBody?.content["application/json"]?.example as
      | { endpoint?: { value?: string } }
      | undefined;
    const endpoint = example?.endpoint?.value;
    if (endpoint === undefined) continue;
    const host = new URL(endpoint).hostname;
    if (sandbox.store.registeredDomain(ORGANIZATION, host)) continue;
    sandbox.store.completeRegistration(caller, sandbox.store.startRegistration(caller, host));
  }
}

/**
 * Keeps the sandbox off the network: a finish_registration that schemathesis chains to a start makes the
 * sandbox fetch https://<generated hostname>/..., and a webhook would deliver to its endpoint. Every such
 * connection is refused, which the sandbox answers as a failed check or a failed delivery.
 */
let refused = 0;
function refuseOutbound(): void {
  setGlobalDispatcher(
    new Agent({
      connect: (_options, callback) => {
        refused++;
        callback(new Error("the schemathesis check keeps the sandbox off the network"), null);
      },
    }),
  );
}

let status = 1;
try {
  seedSessions();
  await registerExampleHosts();
  refuseOutbound();
  const binary = join(dirname(python), "schemathesis");
  const args = [
    "--config-file",
    CONFIG,
    "run",
    `${sandbox.url}/openapi.json`,
    "--url",
    sandbox.url,
    "--header",
    `Authorization: Token ${token}`,
    // The sandbox's limit is off (above): the run need not stay under the service's, as the file has it.
    "--rate-limit",
    "1000/s",
    ...overrides,
    "--no-color",
  ];
  // The header carries the token: the command line is printed without it.
  process.stdout.write(`${binary} ${args.join(" ").replace(token, "<token>")}\n`);
  status = await new Promise<number>((resolve, reject) => {
    const child = spawn(binary, args, { cwd: workDir, stdio: "inherit" });
    const timer = setTimeout(() => child.kill("SIGTERM"), 2 * maxTime * 1000 + 30_000);
    child.once("error", reject);
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
} finally {
  process.stdout.write(`the sandbox's outbound connections, refused: ${refused}\n`);
  await sandbox.close();
  rmSync(workDir, { recursive: true, force: true });
}
process.stdout.write(
  status === 0
    ? `schemathesis found nothing the document does not allow, in ${seconds()} s in all\n`
    : `schemathesis found responses the document does not allow (exit ${status}), in ${seconds()} s in all: fix the sandbox or the document (npm run openapi), then run \`npm run test:openapi\` again\n`,
);
process.exit(status);
