/**
 * Issue 42, item 2: a malformed setting of the stack config or the environment fails each resource's check,
 * so `pulumi preview` refuses it with no API call, naming the setting, where it was set and the next step.
 * Regression: with `service:baseUrl: https://<the service's API base URL>` left in the stack file,
 * `pulumi preview` showed `+ 6 to create` and only `pulumi up` failed.
 */
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { HOST, webhookArgs } from "../../helpers/fixtures";

const PLACEHOLDER = "https://<the service's API base URL>";

/** The check failures of each resource type, in a fresh process configured with `config` and `env`. */
function failuresOf(config: Record<string, string>, env: NodeJS.ProcessEnv = {}): Record<string, string[]> {
  const inputs = {
    webhook: webhookArgs(),
    domainRegistration: { domainName: HOST },
    domainVerification: { domainName: HOST, adopt: true },
  };
  const script = `
    const runtime = require("@service/pulumi/runtime");
    const config = ${JSON.stringify(config)};
    (async () => {
      const failures = {};
      for (const [key, inputs] of Object.entries(${JSON.stringify(inputs)})) {
        const provider = runtime.storedProvider(key, runtime.CONTRACT, "");
        await provider.configure({ config: { get: (name) => config[name] } });
        failures[key] = (await provider.check({}, inputs)).failures.map((f) => f.reason);
      }
      process.stdout.write(JSON.stringify(failures));
    })();`;
  const { SERVICE_BASE_URL, ...inherited } = process.env;
  return JSON.parse(
    execFileSync(process.execPath, ["-e", script], { encoding: "utf8", env: { ...inherited, ...env } }),
  );
}

describe("a resource's check, against the settings its client would read", () => {
  it("refuses a placeholder base URL in the stack config, naming the key and the command that sets it", () => {
    const sentence =
      "The stack config service:baseUrl must be an http(s) URL, such as https://api.example.com or the sandbox's http://127.0.0.1:8787: give the right value with `pulumi config set service:baseUrl <url>`.";
    expect(
      failuresOf({ "service:token": "acme-hooks-token-0123456789", "service:baseUrl": PLACEHOLDER }),
    ).toEqual({
      webhook: [sentence],
      domainRegistration: [sentence],
      domainVerification: [sentence],
    });
  });

  it("refuses a base URL from the environment, naming the variable", () => {
    const failures = failuresOf(
      { "service:token": "acme-hooks-token-0123456789" },
      { SERVICE_BASE_URL: "ftp://x" },
    );
    expect(failures.webhook).toEqual([
      "SERVICE_BASE_URL, in the environment of the `pulumi` command, must be an http(s) URL: correct it, or unset it.",
    ]);
  });

  it("passes well-formed settings, and leaves a missing token to the first call", () => {
    expect(failuresOf({ "service:baseUrl": "http://127.0.0.1:8787" })).toEqual({
      webhook: [],
      domainRegistration: [],
      domainVerification: [],
    });
  });
});
