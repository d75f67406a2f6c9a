import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createSandbox, startSandbox } from "../../sandbox/index";

/** The sandbox as a mountable fetch handler (issue 12), and startSandbox's clear listen error (issue 11). */
const headers = { authorization: "Token sandbox-demo-token", "api-version": "2.0" };

describe("createSandbox", () => {
  it("answers the API through its fetch handler, without listening anywhere", async () => {
    const app = createSandbox({ settings: { rateLimitPerSecond: 0 } });
    const parent = app.upsertSession({ organization: "demo", kind: "fingerprint" }).service_id;
    const child = app.upsertSession({
      organization: "demo",
      kind: "fingerprint",
      item: { activity: { mode: "compare" }, fingerprint_parent: { service_id: parent } },
    }).service_id;
    const res = await app.fetch(new Request(`http://mounted.test/v2/fingerprints/${child}`, { headers }));
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    // Absolute URLs in answers follow the origin the request came in on.
    expect(body.item.fingerprint_parent.url).toBe(`http://mounted.test/v2/fingerprints/${parent}`);
    expect(app.requests().map((r) => r.route)).toEqual(["/v2/fingerprints/{service_id}"]);
    const unknown = await app.fetch(new Request("http://mounted.test/v9/nothing", { headers }));
    expect(unknown.status).toBe(404);
    app.stop();
  });

  it("refuses a drop fault loudly when no Node server owns the connection", async () => {
    const app = createSandbox();
    app.addFault({ method: "GET", path: "/v1/health", drop: true });
    const res = await app.fetch(
      new Request("http://mounted.test/v1/health", { headers: { ...headers, "api-version": "1.4" } }),
    );
    expect(res.status).toBe(500);
    expect(((await res.json()) as any).error.message).toMatch(/drop fault needs/);
  });
});

describe("startSandbox", () => {
  let blocker: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (blocker ? blocker.close(() => resolve()) : resolve())));

  it("rejects with one line naming the busy port and how to pick another", async () => {
    blocker = createServer();
    await new Promise<void>((resolve) => blocker!.listen(0, "127.0.0.1", resolve));
    const { port } = blocker.address() as AddressInfo;
    const error = await startSandbox({ port }).then(
      () => undefined,
      (e: unknown) => e as Error & { code: string; port: number },
    );
    expect(error).toBeInstanceOf(Error);
    expect(error!.code).toBe("port_in_use");
    expect(error!.port).toBe(port);
    expect(error!.message).toContain(`port ${port} on 127.0.0.1 is already in use`);
    expect(error!.message).toMatch(/--port <n>/);
    expect(error!.message).not.toContain("\n");
  });

  it("keeps its return shape: url, port, close and the controls", async () => {
    const sandbox = await startSandbox();
    expect(sandbox.url).toBe(`http://127.0.0.1:${sandbox.port}`);
    for (const member of [
      "requests",
      "deliveries",
      "deliveriesIdle",
      "addFault",
      "upsertSession",
      "close",
    ] as const) {
      expect(typeof sandbox[member]).toBe("function");
    }
    expect(sandbox.store.tokens.size).toBeGreaterThan(0);
    await sandbox.close();
  });
});
