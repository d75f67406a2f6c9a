import module from "node:module";
import { expect, it } from "vitest";

it("loading the package turns Node's compile cache on, for its own modules and those it loads", async () => {
  // Each test file runs in a process of its own, which starts without it: else this would prove nothing.
  expect(process.env.NODE_DISABLE_COMPILE_CACHE).toBeUndefined();
  expect(module.getCompileCacheDir()).toBeUndefined();
  await import("../../../provider/index.js");
  expect(module.getCompileCacheDir()).toMatch(/node-compile-cache[/\\]/);
});
