import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { credentialsHash } from "../../provider/lifecycle/credentials-hash";
import { hashSecret } from "../../provider/lifecycle/secret-hash";
import * as registry from "../../provider/registry";
import * as runtime from "../../provider/runtime-contract";
import { changedBy } from "../helpers/changed-globals";
import { SERVED, webhookArgs } from "../helpers/fixtures";
import { OLD_NODE, warnWithoutOldNode } from "../helpers/old-node";

const METHODS = ["configure", "check", "diff", "create", "read", "update", "delete"];

describe("the runtime contract that stored providers require", () => {
  it("exports its contract version, configure and storedProvider, and nothing else", () => {
    expect(Object.keys(runtime).sort()).toEqual(["CONTRACT", "configure", "storedProvider"]);
    expect(runtime.CONTRACT).toBe(1);
  });

  it("serves each resource's provider under its key for the contract it serves", () => {
    for (const key of Object.keys(SERVED)) {
      const provider = runtime.storedProvider(key, runtime.CONTRACT, "unused");
      for (const method of METHODS) expect(typeof provider[method as keyof typeof provider]).toBe("function");
    }
  });

  it("refuses another contract, older or newer, with the sentence the stored text carries and no stack", () => {
    // What a runtime does when the stack's text asks for a contract it does not serve: a downgrade below
    // the version that wrote the state, or a contract a later major version dropped.
    for (const contract of [runtime.CONTRACT - 1, runtime.CONTRACT + 1]) {
      const failure = (() => {
        try {
          runtime.storedProvider("webhook", contract, "the sentence the text carries");
        } catch (error) {
          return error as Error;
        }
      })();
      expect(failure?.message).toBe("the sentence the text carries");
      expect(failure?.stack).toBe("");
    }
  });

  it("keeps each resource's type token: a new one would replace every resource of the type", () => {
    expect(Object.fromEntries(Object.values(registry).map((r) => [r.key, r.token]))).toEqual(SERVED);
  });
});

/** Every JavaScript file of the runtime bundle, as the package installs it, joined. */
function runtimeBundleText(): string {
  const dir = join(dirname(require.resolve("@service/pulumi/package.json")), "dist/runtime");
  return readdirSync(dir)
    .filter((file) => file.endsWith(".js"))
    .map((file) => readFileSync(join(dir, file), "utf8"))
    .join("\n");
}

describe("the runtime bundle, as the dynamic-provider host loads it", () => {
  /**
   * What a fresh process has loaded, on require of the runtime and after one check: whether zod (from the
   * project's node_modules), and whether the bundle's chunk of the API client.
   */
  function loadedOnRequireAndCheck(): Record<"required" | "checked", { zod: boolean; client: boolean }> {
    const script = `
      const { readFileSync } = require("node:fs");
      const files = () => Object.keys(require.cache);
      const loaded = () => ({
        zod: files().some((file) => /[\\\\/]node_modules[\\\\/]zod[\\\\/]/.test(file)),
        client: files().filter((file) => file.includes("/dist/runtime/")).some((file) => readFileSync(file, "utf8").includes("ServiceClient = class")),
      });
      const runtime = require("@service/pulumi/runtime");
      const required = loaded();
      runtime.storedProvider("webhook", runtime.CONTRACT, "").check({}, {}).then(() => process.stdout.write(JSON.stringify({ required, checked: loaded() })));`;
    return JSON.parse(execFileSync(process.execPath, ["-e", script], { encoding: "utf8" }));
  }

  it("loads no lifecycle on require, and on a first check only the plan, never the API client", () => {
    // The registry lists every resource: it must hand the contract lazy lifecycles, or the host's cold
    // start would load every resource's schemas and the client before it answers anything.
    expect(loadedOnRequireAndCheck()).toEqual({
      required: { zod: false, client: false },
      checked: { zod: true, client: false },
    });
  });

  /** A webhook's diff in a fresh process: its answer's `changes`, and whether the API client was loaded. */
  function diffInFreshProcess(olds: object, news: object): { changes: boolean; client: boolean } {
    const script = `
      const { readFileSync } = require("node:fs");
      const runtime = require("@service/pulumi/runtime");
      runtime.storedProvider("webhook", runtime.CONTRACT, "").diff("diffed-id", ${JSON.stringify(olds)}, ${JSON.stringify(news)}).then((answer) => {
        const client = Object.keys(require.cache)
          .filter((file) => file.includes("/dist/runtime/"))
          .some((file) => readFileSync(file, "utf8").includes("ServiceClient = class"));
        process.stdout.write(JSON.stringify({ changes: answer.changes, client }));
      });`;
    return JSON.parse(execFileSync(process.execPath, ["-e", script], { encoding: "utf8" }));
  }

  it("compares a webhook's credentials on an unchanged diff without loading the API client", () => {
    // Every resource of an unchanged preview is diffed, and the credentials are compared with those state
    // recorded: resolving the settings is enough, and the client's chunk (undici's code with it) is not.
    const secretKey = "whsec-diff-secret-0123456789";
    const connection = { token: "diff-token-0123456789", baseUrl: "http://127.0.0.1:8787" };
    const olds = {
      webhookUuid: "8f14e45f-ceea-467f-a8f0-6b5a4f5e0c11",
      endpoint: "https://hooks.example.com/events",
      channel: "default",
      filters: [],
      apiVersion: "2.0",
      secretKeyHash: hashSecret(secretKey),
      connection,
      credentialsHash: credentialsHash(connection),
    };
    const news = { endpoint: olds.endpoint, secretKey, filters: [], connection };
    expect(diffInFreshProcess(olds, news)).toEqual({ changes: false, client: false });
    // The same inputs, but state recorded other credentials (the stack's token changed since): only the
    // comparison of credentials can tell, and it says the webhook must be updated to check them.
    const recordedOthers = {
      ...olds,
      credentialsHash: credentialsHash({ ...connection, token: "other-token-0123456789" }),
    };
    expect(diffInFreshProcess(recordedOthers, news)).toEqual({ changes: true, client: false });
  });

  it("reports bad input in its own words whatever language the process's zod is set to", () => {
    // zod's settings are the process's, shared with the program's own zod: a German locale there must not
    // reach the package's messages.
    const failures = (locale: string) =>
      execFileSync(
        process.execPath,
        [
          "-e",
          `const { z } = require("zod");
          ${locale}
          const runtime = require("@service/pulumi/runtime");
          runtime.storedProvider("webhook", runtime.CONTRACT, "")
            .check({}, { endpoint: "ftp://x", channel: 5, filters: [{ key: 1 }], apiVersion: "9", secretKey: "" })
            .then((answer) => process.stdout.write(JSON.stringify(answer.failures)));`,
        ],
        { encoding: "utf8" },
      );
    const english = failures("");
    expect(JSON.parse(english)).toHaveLength(5);
    expect(failures("z.config(z.locales.de());")).toBe(english);
  });

  it("carries no doc comments, which every host would read with its chunk", () => {
    // A chunk is read whole as it loads: the TSDoc the sources keep for their readers was read for nothing.
    expect(runtimeBundleText()).not.toContain("/**");
  });

  it("bundles none of its runtime dependencies: the host requires them from the project's node_modules", () => {
    // So that a user's `npm update` or `npm audit fix` of undici reaches the code that holds the token.
    const bundle = runtimeBundleText();
    for (const name of ["undici", "zod"]) expect(bundle).toContain(`require("${name}")`);
    expect(bundle).not.toContain("ZodError = ");
    expect(bundle).not.toContain("class Agent extends");
    // A Delete as the host runs it, against a server that answers every request with 200.
    const script = `
      const { createServer } = require("node:http");
      const server = createServer((req, res) => res.end('{"status":"ok"}')).listen(0, "127.0.0.1", async () => {
        const runtime = require("@service/pulumi/runtime");
        const connection = { token: "bench-token-0123456789", baseUrl: "http://127.0.0.1:" + server.address().port };
        await runtime.storedProvider("webhook", runtime.CONTRACT, "").delete("8f0c6a2e-2b55-4d0c-9a43-0d6c9d1c2a10", { connection, endpoint: "https://hooks.example.com/e", channel: "a", filters: [] }).catch(() => {});
        const undici = require.resolve("undici", { paths: [process.cwd()] });
        process.stdout.write(JSON.stringify({ requests: server.requestsSeen ?? null, loaded: undici in require.cache }));
        server.close();
      });
      server.on("request", () => (server.requestsSeen = (server.requestsSeen ?? 0) + 1));`;
    const { requests, loaded } = JSON.parse(
      execFileSync(process.execPath, ["-e", script], { encoding: "utf8" }),
    );
    expect(requests).toBeGreaterThan(0);
    expect(loaded).toBe(true);
  });
});

// Issue 41: a library is a guest in its user's process (test/helpers/changed-globals.ts).
describe("the runtime bundle, a guest in the dynamic-provider host's process", () => {
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
});

describe("on a Node.js older than 22.19", () => {
  warnWithoutOldNode();

  it.skipIf(!OLD_NODE)("the runtime entry point fails naming both versions, with no stack trace", () => {
    // What the stored provider code loads: the package's runtime subpath, as its exports map resolves it.
    // The dynamic-provider host prints what it catches as `${error}: ${error.stack}`: with an empty stack,
    // that is the message once (test/provider/lifecycle/boundary.test.ts runs it through the host).
    const caught = execFileSync(
      OLD_NODE!,
      [
        "-e",
        `try { require(${JSON.stringify(require.resolve("@service/pulumi/runtime"))}); } catch (e) { process.stdout.write(JSON.stringify({ message: e.message, stack: e.stack })); }`,
      ],
      { encoding: "utf8", stdio: "pipe" },
    );
    const error = JSON.parse(caught) as { message: string; stack: string };
    expect(error.message).toMatch(
      /needs Node\.js 22\.19 or later .* runs Node\.js \d+\.\d+\.\d+ .* first on PATH/,
    );
    expect(error.stack).toBe("");
  });

  it("the runtime bundle loads only its own chunks and Node's built-ins before the guard runs", () => {
    // The guard runs in the entry chunk, after the chunks it requires at the top: if the bundler ever
    // moved a package such as undici into one of those, an old Node would fail there, without the guard's
    // message. This holds on every machine, old Node or not.
    const entry = require.resolve("@service/pulumi/runtime");
    const eager = new Set<string>();
    const visit = (file: string) => {
      if (eager.has(file)) return;
      eager.add(file);
      // Top-level requires only: lazy ones sit inside functions (indented) or arrow functions.
      for (const [, target] of readFileSync(file, "utf8").matchAll(/^(?!.*=>)\S.*?require\("([^"]+)"\)/gm)) {
        if (target!.startsWith("./")) visit(join(dirname(file), target!));
        else expect(target).toMatch(/^node:/);
      }
    };
    visit(entry);
    expect(eager.size).toBeGreaterThan(1);
  });
});
