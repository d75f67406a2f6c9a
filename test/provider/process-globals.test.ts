/**
 * Issue 41, without the engine: a library is a guest in its user's process. In a fresh Node process, as a
 * program runs under `pulumi` and as the dynamic-provider host runs the stored provider, loading the
 * package, constructing each of its resources and calling the runtime (a failing call included) leave
 * every process-wide global as it was: `Error.prepareStackTrace`, Node's module loader, `console`, zod's
 * settings, Node's compile cache, `process` listeners and the rest that test/helpers/process-globals.cjs
 * lists. test/e2e/process-globals.test.ts proves the same under the real engine.
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { expect, it } from "vitest";
import { HOST, webhookArgs } from "../helpers/fixtures";

const GLOBALS = join(__dirname, "../helpers/process-globals.cjs");

/**
 * Runs `steps` (JavaScript, awaited) between two snapshots in a fresh process; answers what differed.
 *
 * zod, which the package requires from the project's node_modules, makes its shared settings and registry
 * on globalThis the first time any copy of it loads, and fills in its defaults (English messages, a
 * memoizer) where unset as its first schema is made, whoever makes it. Unless `withoutZod`, the process
 * makes a zod schema before the first snapshot, as a program that uses zod has: then any setting the
 * package changed would show.
 */
function changedBy(
  steps: string,
  env: NodeJS.ProcessEnv = {},
  withoutZod = false,
): { differences: string[]; loaded: boolean } {
  const script = `
    const { settle, snapshot, differences, loadedPackage } = require(${JSON.stringify(GLOBALS)});
    const pulumi = require("@pulumi/pulumi");
    pulumi.runtime.setMocks(
      { newResource: (args) => ({ id: args.name + "-id", state: args.inputs }), call: (args) => args.inputs },
      "quickstart", "dev", false,
    );
    // What Pulumi's SDK sets up once, on its first resource, before the package is loaded.
    new pulumi.dynamic.Resource({ create: async () => ({ id: "plain" }) }, "plain", {});
    ${withoutZod ? "" : 'const { z } = require("zod"); z.object({ name: z.string() });'}
    setTimeout(async () => {
      await settle();
      const before = snapshot();
      ${steps}
      // Whatever the package scheduled meanwhile has run.
      await new Promise((resolve) => setTimeout(resolve, 50));
      process.stdout.write(JSON.stringify({ differences: differences(before, snapshot()), loaded: loadedPackage() }));
      process.exit(0);
    }, 50);`;
  // Node's compile cache left off, whatever this machine sets (an empty NODE_DISABLE_COMPILE_CACHE counts
  // as set), so that only the package could turn it on.
  const { NODE_COMPILE_CACHE, NODE_DISABLE_COMPILE_CACHE, ...inherited } = process.env;
  return JSON.parse(
    execFileSync(process.execPath, ["-e", script], { encoding: "utf8", env: { ...inherited, ...env } }),
  );
}

it("a program that imports the package and constructs each of its resources changes no global of its process", () => {
  const args = JSON.stringify(webhookArgs());
  const changed = changedBy(`
    const service = require("@service/pulumi");
    const made = [
      new service.Webhook("hook", ${args}),
      new service.Domain("domain", { domainName: ${JSON.stringify(HOST)}, publish: service.directoryPublisher(require("node:os").tmpdir()) }),
      new service.DomainRegistration("registration", { domainName: ${JSON.stringify(HOST)} }),
      new service.DomainVerification("verification", { adopt: true, domainName: ${JSON.stringify(HOST)} }),
      new service.VerificationFile("file", { path: "/tmp/x", content: "y" }),
    ];
    await new Promise((resolve) => pulumi.all(made.map((r) => r.urn)).apply(resolve));`);
  expect(changed.loaded).toBe(true);
  expect(changed.differences).toEqual([]);
});

it("in a process that never loaded zod, the package's only trace is what zod itself makes on its first load", () => {
  const changed = changedBy(`require("@service/pulumi");`, {}, true);
  expect(changed.loaded).toBe(true);
  const [config, names, ...others] = changed.differences;
  expect(others).toEqual([]);
  // zod's defaults (its English messages and its memoizer), not a setting of the package's.
  expect(config).toMatch(/^zod config: "absent" -> \["localeError fn#\d+ ","memoizer object#\d+"\]$/);
  const [before, after] = names!
    .replace(/^globalThis names: /, "")
    .split(" -> ")
    .map((list) => JSON.parse(list) as string[]);
  expect(after!.filter((name) => !before!.includes(name))).toEqual([
    "__zod_globalConfig",
    "__zod_globalRegistry",
  ]);
});

it("the dynamic-provider host's calls into the runtime, a failing one included, change no global of its process", () => {
  const inputs = JSON.stringify(webhookArgs({ channel: "a" }));
  const changed = changedBy(
    `
    const runtime = require("@service/pulumi/runtime");
    const provider = runtime.storedProvider("webhook", runtime.CONTRACT, "");
    const config = { "service:token": "acme-hooks-token-0123456789", "service:baseUrl": "http://127.0.0.1:1" };
    await provider.configure({ config: { get: (key) => config[key] } });
    const { inputs } = await provider.check({}, ${inputs});
    await provider.diff("id", inputs, { ...inputs, channel: "b" });
    // Refused at once (nothing listens on port 1), and never retried past the budget of 0 s.
    const failure = await provider.delete("8f0c6a2e-2b55-4d0c-9a43-0d6c9d1c2a10", inputs).then(() => undefined, (error) => error);
    if (!(failure instanceof Error)) throw new Error("the delete was meant to fail");`,
    { SERVICE_RETRY_BUDGET_SECONDS: "0", SERVICE_RATE_LIMIT: "0" },
  );
  expect(changed.loaded).toBe(true);
  expect(changed.differences).toEqual([]);
});
