/**
 * Scenario 1: the quickstart exactly as the README tells it, under the real engine. `npm run sandbox`
 * (here its built program, on a free port, so that it prints the two `pulumi config set` lines it prints
 * for any port but 8787), then in the clone: `pulumi stack init dev`, those lines, `pulumi up`.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeUnderEngine, pulumiProject } from "../helpers/engine";

const root = join(__dirname, "../..");
/** A port nobody listens on right now (the sandbox's CLI refuses 0: the stack must name the port). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describeUnderEngine("the quickstart under the real engine", () => {
  let sandbox: ChildProcess;
  let greeting = "";
  let url = "";
  // A clone's layout: the project, and `npm run sandbox`'s built program, which serves the clone's
  // tools/quickstart/.well-known-files (where the program writes the verification file).
  let project: ReturnType<typeof pulumiProject>;

  beforeAll(async () => {
    project = pulumiProject({
      from: root,
      files: ["Pulumi.yaml", "Pulumi.dev.yaml", "tools/quickstart", "dist/tools/quickstart"],
    });
    const port = await freePort();
    sandbox = spawn(
      process.execPath,
      [join(project.dir, "dist/tools/quickstart/sandbox.js"), "--port", String(port)],
      {
        cwd: project.dir,
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    // The greeting ends with the line that says how to stop it.
    await new Promise<void>((resolve, reject) => {
      sandbox.stdout!.on("data", (chunk: Buffer) => {
        greeting += chunk.toString();
        if (greeting.includes("Ctrl-C")) resolve();
      });
      sandbox.once("exit", (code) => reject(new Error(`npm run sandbox exited ${code}: ${greeting}`)));
    });
    url = /listening on (\S+)/.exec(greeting)![1]!;
  });
  afterAll(() => {
    sandbox?.kill("SIGTERM");
  });

  const requests = async () =>
    ((await (await fetch(`${url}/_sandbox/requests`)).json()) as { requests: { route?: string }[] }).requests;
  const api = async (path: string) => {
    const response = await fetch(`${url}${path}`, {
      method: "POST",
      headers: {
        authorization: "Token quickstart-token",
        "api-version": "2.0",
        "content-type": "application/json",
      },
      body: "{}",
    });
    return ((await response.json()) as { items: unknown[] }).items;
  };

  it("goes up, previews with no change and no API call, refreshes with one listing, and is destroyed", async () => {
    await project.run(["stack", "init", "dev"]);
    // The lines the sandbox printed for this port, run as printed.
    const printedConfig = greeting
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => line.startsWith("pulumi config set"));
    expect(printedConfig).toHaveLength(2);
    for (const line of printedConfig) {
      const [, key, value] = /^pulumi config set (\S+) (?:'(.*)'|(\S+)) --stack dev$/
        .exec(line)!
        .filter(Boolean);
      await project.run(["config", "set", key!, value!, "--stack", "dev"]);
    }
    await project.run(["up", "--yes", "--stack", "dev"]);
    expect(await api("/v2/search/webhooks")).toHaveLength(2);
    expect(await api("/v2/search/domains")).toHaveLength(1);

    // The review a pull request gets: no change, no API call, and the shipped policy pack passes.
    const beforePreview = (await requests()).length;
    const preview = await project.run([
      "preview",
      "--expect-no-changes",
      "--stack",
      "dev",
      "--policy-pack",
      join(root, "policy-pack"),
    ]);
    expect(preview.output).toMatch(/Policies:[\s\S]*service-pulumi/);
    expect((await requests()).length - beforePreview).toBe(0);

    // One listing of webhooks and one of domains serve every resource of the organization. `pulumi refresh`
    // without --skip-preview reads twice (its preview reads too, in a provider process of its own), so it
    // lists twice; the count here is for one pass.
    const beforeRefresh = (await requests()).length;
    await project.run(["refresh", "--yes", "--skip-preview", "--stack", "dev"]);
    const refreshCalls = (await requests()).slice(beforeRefresh);
    expect(refreshCalls.filter((r) => r.route === "/v2/search/webhooks")).toHaveLength(1);
    expect(refreshCalls.filter((r) => r.route === "/v2/search/domains")).toHaveLength(1);
    expect(refreshCalls).toHaveLength(2);

    await project.run(["destroy", "--yes", "--stack", "dev"]);
    expect(await api("/v2/search/webhooks")).toHaveLength(0);
    expect(await api("/v2/search/domains")).toHaveLength(0);
  });
});
