/**
 * The edge between a lifecycle and the engine, in process: what it does to a failure on the way out.
 * The last describe proves the same through real provider processes.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { ProcessContext, rememberSecret, setProcessContext } from "../../../provider/context/process";
import { AuthenticationError } from "../../../provider/errors/api";
import { LifecycleError } from "../../../provider/errors/lifecycle";
import { atEngineEdge } from "../../../provider/lifecycle/boundary";
import type { ResourceLifecycle } from "../../../provider/lifecycle/methods";
import { configureFromStack } from "../../../provider/lifecycle/stack-config";
import { webhook } from "../../../provider/registry";
import type { Settings } from "../../../provider/settings/value";
import { callFailure, type DynamicHost, startDynamicHost } from "../../helpers/dynamic-host";
import { HOOKS_TOKEN, HOST, SECRET, webhookArgs } from "../../helpers/fixtures";
import { webhookProviderText } from "../../helpers/mocks";
import { OLD_NODE } from "../../helpers/old-node";
import { useRegisteredWorld } from "../../helpers/world";

/** A lifecycle whose every method fails with what `fail` makes. */
const failing = (fail: () => unknown): ResourceLifecycle => {
  const reject = async () => {
    throw fail();
  };
  return { check: reject, diff: reject, create: reject, read: reject, update: reject, remove: reject };
};

const caught = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error("expected a failure");
    },
    (e: unknown) => e as Error,
  );

const refused = () =>
  new AuthenticationError({ method: "GET", route: "/v2/search/webhooks", status: 401, requestId: "req_1" });

/** A new provider process, configured with a token in its stack config and its environment as it is now. */
let settings: Settings;
const configure = () => {
  setProcessContext(new ProcessContext());
  settings = configureFromStack({
    get: (key) => (key === "service:token" ? "acme-saved-token-0123" : undefined),
  });
};

beforeEach(configure);
afterEach(() => {
  vi.unstubAllEnvs();
});

describe("a failure leaving for the engine", () => {
  it("keeps a failure of this package as it is", async () => {
    const error = new LifecycleError("quota_reached", "Cannot create the webhook: ...");
    expect(await caught(atEngineEdge(failing(() => error)).create(settings, {}))).toBe(error);
    expect(error.message).toBe("Cannot create the webhook: ...");
  });

  it("says an unexpected failure is one, hides the secrets it quotes, and says how to see where it happened", async () => {
    rememberSecret("s3cr3t-token-value");
    const error = await caught(
      atEngineEdge(failing(() => new TypeError("cannot read s3cr3t-token-value"))).create(settings, {}),
    );
    expect(error.message).not.toContain("s3cr3t-token-value");
    expect(error.message).toMatch(
      /unexpected failure inside @service\/pulumi: run the command again with SERVICE_DEBUG=1/,
    );
    expect(error.message).not.toMatch(/\n\s+at /);
  });

  it("carries the stack trace, and no word about SERVICE_DEBUG, when SERVICE_DEBUG is set", async () => {
    // The environment is read once, when the provider process is configured.
    vi.stubEnv("SERVICE_DEBUG", "1");
    configure();
    const error = await caught(
      atEngineEdge(failing(() => new TypeError("boom"))).update(settings, "id", {}, {}),
    );
    expect(error.message).toMatch(/^boom\n\s+at /);
    expect(error.message).not.toContain("SERVICE_DEBUG");
  });
});

describe("a refused token on a Read or Delete", () => {
  const stored = { webhookUuid: "3f2a0000-0000-4000-8000-000000000001", endpoint: "https://h/e" };

  it("names --run-program while the process has served nothing but saved state", async () => {
    const edge = atEngineEdge(failing(refused));
    expect((await caught(edge.remove(settings, "id", stored))).message).toContain(
      "`pulumi destroy --run-program`",
    );
    expect((await caught(edge.read(settings, "id", stored))).message).toContain(
      "`pulumi refresh --run-program`",
    );
  });

  it("keeps the plain advice once the process has served the program", async () => {
    const edge = atEngineEdge(failing(refused));
    await caught(edge.check(settings, {}, {}));
    expect((await caught(edge.remove(settings, "id", stored))).message).not.toContain("--run-program");
  });

  it("keeps the plain advice for `pulumi import`, which reads by id with no state and the current config", async () => {
    const edge = atEngineEdge(failing(refused));
    expect((await caught(edge.read(settings, "id", {}))).message).not.toContain("--run-program");
  });
});

describe("through real provider processes", () => {
  /**
   * What a failure looks like where the engine receives it, through Pulumi's real dynamic-provider host and
   * through the provider plugin, each in a process of its own: one message with advice that fits the command
   * that ran (a destroy or refresh on the credentials saved in state says `--run-program`), and no stack
   * trace unless SERVICE_DEBUG=1 asks for it; and the plugin's advice in the program's language. The host
   * prints each failed Check, Diff, Read and Delete itself, as `${error}: ${error.stack}`: the package leaves
   * that line alone (replacing the host's console.error would change it for every dynamic provider of the
   * program), and the failure's empty stack keeps it to the failure once (errors/reported.ts).
   */
  const URN = (name: string) => `urn:pulumi:dev::quickstart::pulumi-nodejs:dynamic/service:Webhook::${name}`;
  const PLUGIN_URN = (name: string) => `urn:pulumi:dev::infra::${webhook.pluginToken}::${name}`;
  const PLUGIN = join(__dirname, "../../../plugin/index.js");
  /** A token the sandbox does not know: what the last update saved before the user fixed the config. */
  const REFUSED = "acme-revoked-token-0123456789";
  /** What a stack trace looks like in anything printed. */
  const STACK_TRACE = /^\s+at |\.(ts|js|mjs|cjs):\d+/m;

  const worldRef = useRegisteredWorld();
  let providerText: string;
  const hosts: DynamicHost[] = [];
  const dirs: string[] = [];

  beforeAll(async () => {
    providerText = await webhookProviderText();
  });
  afterEach(async () => {
    for (const host of hosts.splice(0)) {
      expect(host.output()).not.toContain(SECRET);
      expect(host.output()).not.toContain(HOOKS_TOKEN);
      await host.close();
    }
  });
  afterAll(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  /** One provider process (one `pulumi` command), configured with `token`. */
  async function start(
    token: string,
    options: { env?: NodeJS.ProcessEnv; entry?: string; cwd?: string; node?: string } = {},
  ) {
    const host = await startDynamicHost({
      cwd: options.cwd ?? process.cwd(),
      entry: options.entry,
      node: options.node,
      env: { SERVICE_RATE_LIMIT: "0", ...options.env },
    });
    hosts.push(host);
    const baseUrl = worldRef.current.sandbox.url;
    // The engine configures the plugin with its inputs, and the dynamic host with the stack's config.
    if (options.entry === PLUGIN) await host.configureProvider({ token, baseUrl });
    else await host.configure({ "service:token": token, "service:baseUrl": baseUrl });
    return host;
  }

  /** The message of `call`'s failure, as the engine receives it. */
  const failure = async (call: Promise<unknown>) => (await callFailure(call)).message;

  /** What the host prints of each failure whose message is `message`: the failure once, and no trace. */
  function expectPrintedOnce(output: string, message: string, times = 1): void {
    expect(output.split(`${message}: \n`).length - 1).toBe(times);
    expect(output.split(message).length - 1).toBe(times);
    expect(output.replaceAll(message, "")).not.toMatch(STACK_TRACE);
  }

  /** A webhook made by a `pulumi up` with good credentials: what state holds of it. */
  async function madeByUp(name: string, connection?: { token: string }) {
    const up = await start(HOOKS_TOKEN);
    const news = {
      __provider: providerText,
      ...webhookArgs({ channel: name }),
      ...(connection && { connection }),
    };
    const { inputs } = await up.check(URN(name), {}, news);
    return up.create(URN(name), inputs);
  }

  describe("through the dynamic-provider host, a token refused on the credentials saved in state", () => {
    it("on destroy, says to fix the config and rerun with --run-program, printed once more by the host without a trace (regression)", async () => {
      const made = await madeByUp("destroyed");
      const destroy = await start(REFUSED);
      const message = await failure(destroy.delete(URN("destroyed"), made.id, made.properties));
      expect(message).toMatch(/answered 401/);
      expect(message).toContain(
        "give a valid one with `pulumi config set --secret service:token <token>`, then run `pulumi destroy --run-program`",
      );
      expect(message).not.toMatch(STACK_TRACE);
      // The host printed the failure once more, without its trace.
      expectPrintedOnce(destroy.output(), message);
    });

    it("on refresh, says `pulumi refresh --run-program`, also for two resources failing on one shared listing (regression)", async () => {
      const made = [await madeByUp("refreshed"), await madeByUp("refreshed-too")];
      const refresh = await start(REFUSED);
      const messages = await Promise.all(
        made.map((m, i) =>
          failure(refresh.read(URN(["refreshed", "refreshed-too"][i]!), m.id, m.properties)),
        ),
      );
      for (const message of messages) expect(message).toContain("then run `pulumi refresh --run-program`");
      // Both failures print alike, and the host printed each once, without its trace.
      expect(messages[1]).toBe(messages[0]);
      expectPrintedOnce(refresh.output(), messages[0]!, 2);
    });

    it("in a process that ran the program (an up), keeps the plain advice: the config it read is current", async () => {
      const made = await madeByUp("updated");
      const up = await start(REFUSED);
      await up.check(URN("other"), {}, { __provider: providerText, ...webhookArgs({ channel: "other" }) });
      const message = await failure(up.delete(URN("updated"), made.id, made.properties));
      expect(message).toContain("give a valid one with `pulumi config set --secret service:token <token>`");
      expect(message).not.toContain("--run-program");
    });

    it("from the resource's own connection, says to fix it in the program and record it with `pulumi up`", async () => {
      const made = await madeByUp("connected", { token: HOOKS_TOKEN });
      const destroy = await start(HOOKS_TOKEN);
      const stored = { ...made.properties, connection: { token: REFUSED } };
      const message = await failure(destroy.delete(URN("connected"), made.id, stored));
      expect(message).toContain(
        "give a valid one with the resource's `connection.token` in the program, then run `pulumi up` to record it and `pulumi destroy` again",
      );
    });

    it("with SERVICE_DEBUG=1, carries its stack trace in its one message", async () => {
      const made = await madeByUp("debugged");
      const destroy = await start(REFUSED, { env: { SERVICE_DEBUG: "1" } });
      const message = await failure(destroy.delete(URN("debugged"), made.id, made.properties));
      expect(message).toMatch(/\n\s+at .*errors/);
      // The host prints the requests SERVICE_DEBUG asks for, and the failure once, its trace with it once.
      expect(destroy.output()).toMatch(/deactivate -> 401/);
      expect(destroy.output().split(message).length - 1).toBe(1);
    });
  });

  describe.skipIf(!OLD_NODE)("through the dynamic-provider host on a Node.js older than 22.19", () => {
    it("answers the one line that names both versions, and prints no stack trace", async () => {
      const host = await start(HOOKS_TOKEN, { node: OLD_NODE });
      const news = { __provider: providerText, ...webhookArgs() };
      const message = await failure(host.check(URN("old-node"), {}, news));
      expect(message).toMatch(/^@service\/pulumi needs Node\.js 22\.19 or later .* first on PATH/);
      expect(message).not.toMatch(STACK_TRACE);
      expectPrintedOnce(host.output(), message);
    });
  });

  describe("through the provider plugin", () => {
    /** A project folder whose Pulumi.yaml names `runtime`: the engine runs the plugin in it. */
    const project = (runtime: string) => {
      const dir = mkdtempSync(join(tmpdir(), "plugin-project-"));
      dirs.push(dir);
      writeFileSync(join(dir, "Pulumi.yaml"), `name: infra\nruntime:\n  name: ${runtime}\n`);
      return dir;
    };

    it.each([
      ["python", "`opts=pulumi.ResourceOptions(depends_on=[domain])`"],
      // biome-ignore lint/suspicious/noTemplateCurlyInString: YAML's own interpolation syntax, not a template
      ["yaml", "`dependsOn: [${domain}]` under `options:`"],
      ["go", "the resource option `pulumi.DependsOn([]pulumi.Resource{domain})`"],
    ])("advises a %s program in its own spelling", async (runtime, spelled) => {
      const plugin = await start(HOOKS_TOKEN, { entry: PLUGIN, cwd: project(runtime) });
      const args = webhookArgs({ endpoint: "https://other.acme.test/service/events" });
      const { inputs } = await plugin.check(PLUGIN_URN("orders"), {}, args);
      const message = await failure(plugin.create(PLUGIN_URN("orders"), inputs));
      expect(message).toContain(`give this Webhook ${spelled}`);
    });

    it("says --run-program for a destroy on saved credentials, as the dynamic host does", async () => {
      const up = await start(HOOKS_TOKEN, { entry: PLUGIN, cwd: project("python") });
      const { inputs } = await up.check(
        PLUGIN_URN("orders"),
        {},
        webhookArgs({ endpoint: `https://${HOST}/e` }),
      );
      const made = await up.create(PLUGIN_URN("orders"), inputs);
      const destroy = await start(REFUSED, { entry: PLUGIN, cwd: project("python") });
      const message = await failure(destroy.delete(PLUGIN_URN("orders"), made.id, made.properties));
      expect(message).toContain("then run `pulumi destroy --run-program`");
    });
  });
});
