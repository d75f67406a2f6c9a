import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigurationError } from "../../provider/client/index";
import { ADMIN_TOKEN_HEADER, type Sandbox, startSandbox } from "../../sandbox/index";
import { ADMIN_TOKEN, testSeed } from "../helpers/fixtures";
import { sendExactly as send } from "../helpers/http";

/**
 * Regression (issue 18, item 4): through DNS rebinding a web page could read every organization's state
 * from `/_sandbox/*`, and have the sandbox sign a body of its choosing with a webhook's secret
 * (POST /_sandbox/sessions with a text/plain body). The admin routes now answer only requests addressed
 * to loopback, refuse cross-site requests, and need an admin token when one is set.
 */
const SESSION = JSON.stringify({ organization: "acme", kind: "authentication" });

/** POST /_sandbox/sessions addressed to `host` with `contentType`: asks the sandbox to sign a delivery. */
const postSession = (sandbox: Sandbox, host: string, contentType = "application/json") =>
  send(sandbox, "POST", "/_sandbox/sessions", { host, "content-type": contentType }, SESSION);

describe("the admin routes on a loopback sandbox without a token", () => {
  let sandbox: Sandbox;
  let loopback: string;
  beforeAll(async () => {
    sandbox = await startSandbox({ seed: testSeed("http://127.0.0.1:9") });
    loopback = `127.0.0.1:${sandbox.port}`;
  });
  afterAll(() => sandbox.close());

  it.each(["127.0.0.1", "localhost", "[::1]", "127.1.2.3", "127.10.200.30", "sandbox.localhost"])(
    "answer a request addressed to %s",
    async (name) => {
      const answer = await send(sandbox, "GET", "/_sandbox/state", { host: `${name}:${sandbox.port}` });
      expect(answer.status).toBe(200);
    },
  );

  it.each([
    ["a rebound domain", "attacker.example"],
    ["a loopback-looking domain", "127.0.0.1.attacker.example"],
    ["the wildcard address", "0.0.0.0"],
    ["a LAN address", "192.168.1.20"],
  ])("refuse a request addressed to %s with 403", async (_name, name) => {
    for (const path of [
      "/_sandbox",
      "/_sandbox/state",
      "/_sandbox/deliveries",
      "/_SANDBOX/state",
      "//_sandbox/requests",
    ]) {
      const answer = await send(sandbox, "GET", path, { host: `${name}:${sandbox.port}` });
      expect(answer.status, path).toBe(403);
      expect(JSON.parse(answer.body).error.code).toBe("host_refused");
    }
    expect((await postSession(sandbox, name)).status).toBe(403);
  });

  it("refuse a request that names no host at all (HTTP/1.0 without Host) with 403", async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(sandbox.port, "127.0.0.1");
      let text = "";
      socket.on("data", (chunk: Buffer) => {
        text += chunk.toString();
      });
      socket.on("end", () => resolve(text));
      socket.on("error", reject);
      socket.end("GET /_sandbox/state HTTP/1.0\r\n\r\n");
    });
    expect(answer).toMatch(/^HTTP\/1\.1 403 /);
    expect(answer).toContain('"code":"host_refused"');
  });

  it("refuses a foreign Origin and an opaque one, and accepts its own", async () => {
    for (const origin of ["http://attacker.example", "null", `http://localhost:${sandbox.port}`]) {
      const answer = await send(sandbox, "GET", "/_sandbox/state", { host: loopback, origin });
      expect(answer.status, origin).toBe(403);
      expect(JSON.parse(answer.body).error.code).toBe("cross_site_refused");
    }
    const own = await send(sandbox, "GET", "/_sandbox/state", {
      host: loopback,
      origin: `http://${loopback}`,
    });
    expect(own.status).toBe(200);
  });

  it.each([
    "text/plain",
    "text/plain;charset=UTF-8",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x",
  ])("refuses a simple cross-site POST (%s) and creates nothing", async (contentType) => {
    const before = sandbox.requests().length;
    const answer = await postSession(sandbox, loopback, contentType);
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body).error.message).toMatch(/send Content-Type: application\/json/);
    const state = await send(sandbox, "GET", "/_sandbox/deliveries", { host: loopback });
    expect(JSON.parse(state.body).deliveries).toEqual([]);
    expect(sandbox.requests().length).toBe(before);
  });

  it("takes a JSON POST from a local tool", async () => {
    expect((await postSession(sandbox, loopback)).status).toBe(200);
  });

  it("leaves the API routes to their own checks", async () => {
    const answer = await send(sandbox, "GET", "/v1/health", { host: "attacker.example" });
    expect(answer.status).toBe(401);
  });
});

describe("the admin routes with an admin token", () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ seed: testSeed("http://127.0.0.1:9"), adminToken: ADMIN_TOKEN });
  });
  afterAll(() => sandbox.close());

  it("refuse a request without it, or with another, with 401 that never quotes it", async () => {
    for (const given of [undefined, "wrong-token-0123456789", `${ADMIN_TOKEN}x`]) {
      const headers: Record<string, string> = { host: `127.0.0.1:${sandbox.port}` };
      if (given !== undefined) headers[ADMIN_TOKEN_HEADER] = given;
      const answer = await send(sandbox, "GET", "/_sandbox/state", headers);
      expect(answer.status).toBe(401);
      expect(JSON.parse(answer.body).error.code).toBe("admin_token_required");
      expect(answer.body).not.toContain(ADMIN_TOKEN);
    }
  });

  it("answer a request that carries it, from any Host, but still refuse a foreign Origin", async () => {
    const withToken = { [ADMIN_TOKEN_HEADER]: ADMIN_TOKEN };
    expect(
      (await send(sandbox, "GET", "/_sandbox/state", { ...withToken, host: "sandbox.lan:8787" })).status,
    ).toBe(200);
    const foreign = await send(sandbox, "GET", "/_sandbox/state", {
      ...withToken,
      host: "sandbox.lan:8787",
      origin: "http://attacker.example",
    });
    expect(foreign.status).toBe(403);
  });

  it("leave the stand-in webhook host to the sandbox's own calls, on loopback only", async () => {
    const folder = mkdtempSync(join(tmpdir(), "sandbox-origin-"));
    writeFileSync(join(folder, "file.txt"), "served");
    const served = await startSandbox({
      seed: testSeed("http://127.0.0.1:9"),
      adminToken: ADMIN_TOKEN,
      serveDir: folder,
    });
    try {
      const local = await send(served, "GET", "/_sandbox/origin/file.txt", {
        host: `127.0.0.1:${served.port}`,
      });
      expect(local).toEqual({ status: 200, body: "served" });
      const rebound = await send(served, "GET", "/_sandbox/origin/file.txt", {
        host: "attacker.example",
        [ADMIN_TOKEN_HEADER]: ADMIN_TOKEN,
      });
      expect(rebound.status).toBe(403);
    } finally {
      await served.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it("is reported by startSandbox, and was not made up", () => {
    expect(sandbox.adminToken).toBe(ADMIN_TOKEN);
    expect(sandbox.adminTokenGenerated).toBe(false);
  });

  it("refuses a short admin token at start with a ConfigurationError, without quoting it", async () => {
    const error = await startSandbox({
      seed: testSeed("http://127.0.0.1:9"),
      adminToken: "short-token",
    }).catch((e: unknown) => e);
    // The class a user of @service/pulumi/client catches, and its code.
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as ConfigurationError).code).toBe("configuration");
    expect(String((error as Error).message)).toMatch(/adminToken must be a string of at least 16 characters/);
    expect(inspect(error)).not.toContain("short-token");
  });
});
