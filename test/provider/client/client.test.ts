import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { Agent, type Dispatcher } from "undici";
import { describe, expect, it } from "vitest";
import type { RateLimitError, ServiceError } from "../../../provider/client/index";
import * as ClientModule from "../../../provider/client/index";
import { rejection } from "../../helpers/client-sandbox";
import { useHooksSandbox } from "../../helpers/hooks-sandbox";
import { OLD_NODE, warnWithoutOldNode } from "../../helpers/old-node";

/**
 * The areas whose request and response schemas (contract/<area>/requests.js and responses.js) a fresh
 * process (as the packed package runs it) has loaded, after `calls` ran against a port where nothing
 * listens.
 */
function schemasLoadedAfter(calls: string): string[] {
  const script = `
    const { ServiceClient } = require("@service/pulumi/client");
    const client = new ServiceClient({ token: "area-test-token", baseUrl: "http://127.0.0.1:9", sleep: async () => {} });
    const areas = () => Object.keys(require.cache)
      .map((file) => /[\\\\/]contract[\\\\/](\\w+)[\\\\/](?:requests|responses)\\.js$/.exec(file)?.[1])
      .filter(Boolean)
      .filter((area, i, all) => all.indexOf(area) === i)
      .sort();
    (async () => { ${calls} })().then(() => process.stdout.write(JSON.stringify(areas())));`;
  return JSON.parse(execFileSync(process.execPath, ["-e", script], { encoding: "utf8" }));
}

describe("the client's API areas, as a process loads them", () => {
  it("loads the sessions' and integrations' schemas only when one of their methods is called", () => {
    // The provider's lifecycles call webhooks and domains only: every dynamic-provider host and plugin
    // process would otherwise build the sessions' and integrations' schemas for nothing.
    const webhooksOnly = schemasLoadedAfter(
      "await client.webhooks.deactivate('a').catch(() => {}); await client.domains.list().catch(() => {});",
    );
    expect(webhooksOnly).toEqual(["domains", "webhooks"]);
    const withSessions = schemasLoadedAfter(
      "await client.authentications.retrieve('a').catch(() => {}); await client.integrations.supportedBrands().catch(() => {});",
    );
    expect(withSessions).toEqual(["domains", "integrations", "sessions", "webhooks"]);
  });
});

describe("on a Node.js older than 22.19", () => {
  warnWithoutOldNode();

  it.skipIf(!OLD_NODE)(
    "a client constructed on an old Node throws ConfigurationError at once, naming both versions and how to get Node",
    () => {
      // Before this, the client constructed fine and its first request failed as a ConnectionError.
      const script = `
      const { ServiceClient, ConfigurationError } = require(${JSON.stringify(join(__dirname, "../../../dist/provider/client/index.js"))});
      try {
        new ServiceClient({ token: "t-0123456789" });
        console.log(JSON.stringify({ constructed: true }));
      } catch (e) {
        console.log(JSON.stringify({ configuration: e instanceof ConfigurationError, code: e.code, message: e.message }));
      }`;
      const out = JSON.parse(execFileSync(OLD_NODE!, ["-e", script], { encoding: "utf8" }));
      expect(out).toMatchObject({ configuration: true, code: "configuration" });
      expect(out.message).toMatch(
        /^ServiceClient needs Node\.js 22\.19 or later .* runs Node\.js \d+\.\d+\.\d+ .*Install Node\.js 24 LTS/,
      );
    },
  );
});

describe("state owned by the instance", () => {
  const world = useHooksSandbox();
  const { client } = world;

  /** An undici Agent that counts what it dispatches: a transport a test can tell apart from another. */
  class CountingAgent extends Agent {
    dispatched = 0;
    override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
      this.dispatched++;
      return super.dispatch(options, handler);
    }
  }

  it("two clients in one process use each its own clock and transport", async () => {
    world.sandbox.addFault({ method: "GET", path: "/v1/health", status: 429, retryAfter: 45, count: 2 });
    const [agentA, agentB] = [new CountingAgent(), new CountingAgent()];
    const a = client({ clock: () => 1_000_000, dispatcher: agentA, retry: { maxElapsedMs: 1_000 } });
    const b = client({ clock: () => 9_000_000, dispatcher: agentB, retry: { maxElapsedMs: 1_000 } });
    const [errorA, errorB] = [
      await rejection<ServiceError>(a.health()),
      await rejection<ServiceError>(b.health()),
    ];
    expect((errorA as RateLimitError).retryAt).toEqual(new Date(1_000_000 + 45_000));
    expect((errorB as RateLimitError).retryAt).toEqual(new Date(9_000_000 + 45_000));
    expect([agentA.dispatched, agentB.dispatched]).toEqual([1, 1]);
    await b.health();
    expect([agentA.dispatched, agentB.dispatched]).toEqual([1, 2]);
    // Before any answer, the service's clock is taken to be the client's own.
    expect(client({ clock: () => 42 }).serverNow()).toBe(42);
    await Promise.all([agentA.close(), agentB.close()]);
  });

  it("exports no process-wide test hooks from ./client", () => {
    expect(Object.keys(ClientModule)).not.toContain("setProcessContext");
    expect(Object.keys(ClientModule)).not.toContain("ProcessContext");
  });
});
