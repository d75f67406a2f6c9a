import { describe, expect, it } from "vitest";
import { resolveHost } from "../../../contract/domains/hostname-overrides";
import {
  VERIFICATION_PATH_PATTERN,
  verificationKey,
  verificationUrl,
} from "../../../contract/domains/verification";
import { describeObservation } from "../../../contract/domains/verification-check";
import { fetchVerificationFile } from "../../../provider/domain/lifecycle";

import { scripted, useScriptedServers } from "../../helpers/scripted-server";

/** The verification file: its URL and key, and the one check the Domain and the sandbox both run. */

useScriptedServers();

describe("the verification file", () => {
  it("is addressed at the spec's path, and published under that path as its key", () => {
    const url = verificationUrl("hooks.example.com", "v/1 2");
    expect(url).toBe("https://hooks.example.com/service_url_registration/v%2F1%202");
    expect(verificationKey(url)).toBe("service_url_registration/v%2F1%202");
    expect(verificationKey("https://h.example.com//a/b")).toBe("a/b");
    expect(VERIFICATION_PATH_PATTERN).toBe("/service_url_registration/*");
  });

  it("is fetched from a stand-in origin when the hostname has one, keeping the path and query", () => {
    const hosts = { "hooks.example.com": "http://127.0.0.1:9000//" };
    expect(resolveHost("https://hooks.example.com/a/b?c=d", hosts)).toBe("http://127.0.0.1:9000/a/b?c=d");
    expect(resolveHost("https://other.example.com/a", hosts)).toBe("https://other.example.com/a");
  });

  it("describes every observation without repeating the body", () => {
    expect(describeObservation({ kind: "ok" })).toBe("the URL served exactly the register token");
    expect(describeObservation({ kind: "status", status: 404 })).toBe("the URL answered 404");
    expect(describeObservation({ kind: "redirect", status: 301, location: "/x" })).toBe(
      "the URL answered a 301 redirect to /x, and the service follows no redirect",
    );
    expect(describeObservation({ kind: "redirect", status: 302, location: null })).toBe(
      "the URL answered a 302 redirect, and the service follows no redirect",
    );
    expect(describeObservation({ kind: "mismatch", bytes: 7 })).toBe(
      "the URL answered 200 with a 7-byte body that is not exactly the register token",
    );
    expect(describeObservation({ kind: "unreachable", message: "boom" })).toBe(
      "the URL could not be fetched (boom)",
    );
  });

  it("sees exactly what the URL served: the token, another body, a redirect, another status", async () => {
    const answers: [number, Record<string, string>, string][] = [
      [200, {}, "the-token"],
      [200, {}, "the-token\n"],
      [300, { location: "/elsewhere" }, ""],
      [399, {}, ""],
      [400, {}, "the-token"],
      // Answers without a body at all.
      [304, {}, ""],
      [204, {}, ""],
    ];
    const server = await scripted((_r, index, res) => {
      const [status, headers, body] = answers[index]!;
      res.writeHead(status, headers).end(body);
    });
    const hosts = { "hooks.example.com": server.url };
    const observe = () => fetchVerificationFile("https://hooks.example.com/f", "the-token", { hosts });
    expect(await observe()).toEqual({ kind: "ok" });
    expect(await observe()).toEqual({ kind: "mismatch", bytes: 10 });
    expect(await observe()).toEqual({ kind: "redirect", status: 300, location: "/elsewhere" });
    expect(await observe()).toEqual({ kind: "redirect", status: 399, location: null });
    expect(await observe()).toEqual({ kind: "status", status: 400 });
    expect(await observe()).toEqual({ kind: "redirect", status: 304, location: null });
    expect(await observe()).toEqual({ kind: "status", status: 204 });
    expect(server.seen.every((s) => s.headers["cache-control"] === "no-cache")).toBe(true);
  });

  it("gives up on a URL that does not answer within the timeout, or cannot be reached", async () => {
    const server = await scripted((_r, _i, res) => {
      setTimeout(() => res.end("late"), 2_000).unref();
    });
    const slow = await fetchVerificationFile(`${server.url}/f`, "t", { timeoutMs: 100 });
    expect(slow.kind).toBe("unreachable");
    const closed = await scripted(() => ({}));
    await closed.close();
    const refused = await fetchVerificationFile(`${closed.url}/f`, "t");
    expect(refused).toMatchObject({ kind: "unreachable", message: expect.any(String) });
  });
});
