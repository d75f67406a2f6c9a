import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { startSandbox } from "../../sandbox/index";

/** startSandbox's clear listen error (issue 11), and what it answers. */
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
