/**
 * The edge between a lifecycle and the engine, in process: what it does to a failure on the way out.
 * The host tests (test/provider/lifecycle/edge-dynamic-host.test.ts) prove the same through real provider processes.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ProcessContext, rememberSecret, setProcessContext } from "../../../provider/context/process";
import { AuthenticationError } from "../../../provider/errors/api";
import { LifecycleError } from "../../../provider/errors/lifecycle";
import { atEngineEdge } from "../../../provider/lifecycle/boundary";
import type { ResourceLifecycle } from "../../../provider/lifecycle/methods";
import { configureFromStack } from "../../../provider/lifecycle/stack-config";

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
const configure = () => {
  setProcessContext(new ProcessContext());
  configureFromStack({ get: (key) => (key === "service:token" ? "acme-saved-token-0123" : undefined) });
};

beforeEach(configure);
afterEach(() => {
  vi.unstubAllEnvs();
});

describe("a failure leaving for the engine", () => {
  it("keeps a failure of this package as it is", async () => {
    const error = new LifecycleError("quota_reached", "Cannot create the webhook: ...");
    expect(await caught(atEngineEdge(failing(() => error)).create({}))).toBe(error);
    expect(error.message).toBe("Cannot create the webhook: ...");
  });

  it("says an unexpected failure is one, hides the secrets it quotes, and says how to see where it happened", async () => {
    rememberSecret("s3cr3t-token-value");
    const error = await caught(
      atEngineEdge(failing(() => new TypeError("cannot read s3cr3t-token-value"))).create({}),
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
    const error = await caught(atEngineEdge(failing(() => new TypeError("boom"))).update("id", {}, {}));
    expect(error.message).toMatch(/^boom\n\s+at /);
    expect(error.message).not.toContain("SERVICE_DEBUG");
  });
});

describe("a refused token on a Read or Delete", () => {
  const stored = { webhookUuid: "3f2a0000-0000-4000-8000-000000000001", endpoint: "https://h/e" };

  it("names --run-program while the process has served nothing but saved state", async () => {
    const edge = atEngineEdge(failing(refused));
    expect((await caught(edge.remove("id", stored))).message).toContain("`pulumi destroy --run-program`");
    expect((await caught(edge.read("id", stored))).message).toContain("`pulumi refresh --run-program`");
  });

  it("keeps the plain advice once the process has served the program", async () => {
    const edge = atEngineEdge(failing(refused));
    await caught(edge.check({}, {}));
    expect((await caught(edge.remove("id", stored))).message).not.toContain("--run-program");
  });

  it("keeps the plain advice for `pulumi import`, which reads by id with no state and the current config", async () => {
    const edge = atEngineEdge(failing(refused));
    expect((await caught(edge.read("id", {}))).message).not.toContain("--run-program");
  });
});
