import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";

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
