import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { runDemo } from "../../sandbox/demo-loop";

const BIN = join(__dirname, "../../dist/sandbox/bin.js");
const TOKEN = "planted-demo-token-5f1c9e";
const SECRET = "planted-webhook-secret-a83d17";
/** A register token is 43 base64url characters; no secret of the demo is shorter than 24. */
const LONG_OPAQUE = /[A-Za-z0-9_-]{40,}/;

describe("service-sandbox demo", () => {
  it("shows the whole loop against a receiver of the user's kind: create, verify, deliver, check, guard", async () => {
    const lines: string[] = [];
    await runDemo({ write: (line) => lines.push(line), token: TOKEN, secretKey: SECRET });
    const text = lines.join("\n");
    expect(text).toMatch(/verified: domain [0-9a-f-]{36}/);
    expect(text).toMatch(/webhook [0-9a-f-]{36} posts to https:\/\/hooks\.demo\.test\/service\/events/);
    const received = lines.filter((l) => l.includes("received by your receiver"));
    expect(received).toHaveLength(2);
    expect(received[0]).toMatch(/update_counter 1, result "Authentic" .*signature verified with secret #0/);
    expect(received[1]).toMatch(/update_counter 2, result "Unidentified"/);
    expect(text).toContain("answered 200; handleItem was not called: update_counter 1 is older");
    expect(text).toMatch(/refused by your receiver with 401: .*signature does not match/);
  });

  it("prints no secret: not the token, the webhook's secret key nor the register token", async () => {
    const lines: string[] = [];
    await runDemo({ write: (line) => lines.push(line), token: TOKEN, secretKey: SECRET });
    const text = lines.join("\n");
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain(SECRET);
    expect(text).not.toMatch(LONG_OPAQUE);
  });

  it("runs as one command from the package's bin and exits 0", async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [BIN, "demo"], { timeout: 20_000 });
    expect(stdout.split("\n")[0]).toMatch(
      /^sandbox http:\/\/127\.0\.0\.1:\d+; your receiver http:\/\/127\.0\.0\.1:\d+/,
    );
    expect(stdout).toContain("Done: create, verify, deliver, verify the signature, guard the counter.");
    expect(stdout).not.toMatch(LONG_OPAQUE);
  });
});
