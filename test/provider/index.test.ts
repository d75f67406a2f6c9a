import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { changedBy } from "../helpers/changed-globals";
import { HOST, webhookArgs } from "../helpers/fixtures";

describe("the package's main entry, as a program loads it", () => {
  it("loads one bundle of a few files, with every export of the sources, and zod from the project", () => {
    // A program requires the package before it declares its first resource, so each file it loads
    // delays every step of every command: tsc's output was 181 files. zod is the project's own copy, so
    // that `npm update` reaches it.
    const script = `
      const before = new Set(Object.keys(require.cache));
      const main = require("@service/pulumi");
      const files = Object.keys(require.cache).filter((file) => !before.has(file));
      // @pulumi/pulumi, zod and undici are the project's own dependencies.
      process.stdout.write(JSON.stringify({ files, exports: Object.keys(main).sort() }));`;
    const { files, exports } = JSON.parse(
      execFileSync(process.execPath, ["-e", script], { encoding: "utf8" }),
    );
    const ours = files.filter((file: string) => !/[\\/]node_modules[\\/]/.test(file));
    expect(ours.length).toBeGreaterThan(0);
    expect(ours.length).toBeLessThanOrEqual(30);
    expect(files).toContain(require.resolve("zod"));
    expect(exports).toEqual(
      expect.arrayContaining(["Domain", "ServiceClient", "Webhook", "directoryPublisher", "s3Publisher"]),
    );
  });
});

// Issue 41: a library is a guest in its user's process (test/helpers/changed-globals.ts).
describe("the package's main entry, a guest in its program's process", () => {
  it("a program that imports the package and constructs each of its resources changes no global of its process", () => {
    const args = JSON.stringify(webhookArgs());
    const changed = changedBy(`
      const service = require("@service/pulumi");
      const made = [
        new service.Webhook("hook", ${args}),
        new service.Domain("domain", { domainName: ${JSON.stringify(HOST)}, publish: service.directoryPublisher(require("node:os").tmpdir()) }),
        new service.DomainRegistration("registration", { domainName: ${JSON.stringify(HOST)} }),
        new service.DomainVerification("verification", { adopt: true, domainName: ${JSON.stringify(HOST)} }),
        new service.VerificationFile("file", { path: "/tmp/x", content: "y" }),
      ];
      await new Promise((resolve) => pulumi.all(made.map((r) => r.urn)).apply(resolve));`);
    expect(changed.loaded).toBe(true);
    expect(changed.differences).toEqual([]);
  });

  it("in a process that never loaded zod, the package's only trace is what zod itself makes on its first load", () => {
    const changed = changedBy(`require("@service/pulumi");`, {}, true);
    expect(changed.loaded).toBe(true);
    const [config, names, ...others] = changed.differences;
    expect(others).toEqual([]);
    // zod's defaults (its English messages and its memoizer), not a setting of the package's.
    expect(config).toMatch(/^zod config: "absent" -> \["localeError fn#\d+ ","memoizer object#\d+"\]$/);
    const [before, after] = names!
      .replace(/^globalThis names: /, "")
      .split(" -> ")
      .map((list) => JSON.parse(list) as string[]);
    expect(after!.filter((name) => !before!.includes(name))).toEqual([
      "__zod_globalConfig",
      "__zod_globalRegistry",
    ]);
  });
});
