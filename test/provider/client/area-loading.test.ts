import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";

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
