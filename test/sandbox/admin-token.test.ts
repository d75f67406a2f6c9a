import { describe, expect, it, vi } from "vitest";
import { resolveAdminToken } from "../../sandbox/admin-token";
import { ADMIN_TOKEN_ENV, startSandbox } from "../../sandbox/index";
import { ADMIN_TOKEN, testSeed } from "../helpers/fixtures";
import { sendExactly as send } from "../helpers/http";

describe("the admin token's source", () => {
  it("is read from SERVICE_SANDBOX_ADMIN_TOKEN on loopback too", async () => {
    vi.stubEnv(ADMIN_TOKEN_ENV, ADMIN_TOKEN);
    const sandbox = await startSandbox({ seed: testSeed("http://127.0.0.1:9") });
    try {
      expect(sandbox.adminToken).toBe(ADMIN_TOKEN);
      const answer = await send(sandbox, "GET", "/_sandbox/state", { host: `127.0.0.1:${sandbox.port}` });
      expect(answer.status).toBe(401);
    } finally {
      await sandbox.close();
    }
  });

  // Tests listen on 127.0.0.1 only, so the choice made for a wider address is checked without listening.
  it.each(["0.0.0.0", "::", "192.168.1.20", "no host name"])(
    "is made up when listening on %s with none given",
    (host) => {
      const first = resolveAdminToken(host, undefined, {});
      expect(first.generated).toBe(true);
      expect(first.adminToken).toMatch(/^[A-Za-z0-9_-]{32}$/);
      expect(resolveAdminToken(host, undefined, {}).adminToken).not.toBe(first.adminToken);
    },
  );

  it.each(["127.0.0.1", "localhost", "::1"])("is not required on %s", (host) => {
    expect(resolveAdminToken(host, undefined, {})).toEqual({ adminToken: undefined, generated: false });
  });
});
