import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";

const root = join(__dirname, "../..");
/** What a build reads, and the build script itself. */
const TREE = ["package.json", "tsconfig.base.json", "tsconfig.build.json", "rolldown.config.mjs"];
const SOURCES = ["contract", "provider", "sandbox", "tools", "test/helpers"];

const copy = mkdtempSync(join(tmpdir(), "service-clean-build-"));
afterAll(() => rmSync(copy, { recursive: true, force: true }));

it("`npm run build` (a clean build) empties dist/ but for the release's artifacts, and stamps the build current", () => {
  for (const path of [...TREE, ...SOURCES]) cpSync(join(root, path), join(copy, path), { recursive: true });
  symlinkSync(join(root, "node_modules"), join(copy, "node_modules"), "dir");
  // What an earlier `npm run release` left, and what an earlier build emitted from a source since deleted.
  mkdirSync(join(copy, "dist/release"), { recursive: true });
  writeFileSync(join(copy, "dist/release/MANIFEST.json"), "{}\n");
  mkdirSync(join(copy, "dist/provider/gone"), { recursive: true });
  writeFileSync(join(copy, "dist/provider/gone/old.js"), "");

  execFileSync(process.execPath, [join(copy, "tools/build/build.mts"), "--clean"], {
    cwd: copy,
    stdio: "pipe",
  });

  expect(existsSync(join(copy, "dist/release/MANIFEST.json"))).toBe(true);
  expect(existsSync(join(copy, "dist/provider/gone"))).toBe(false);
  expect(existsSync(join(copy, "dist/provider/index.js"))).toBe(true);
  expect(existsSync(join(copy, "dist/runtime/index.js"))).toBe(true);
  // So that `npm run sandbox` right after starts without building again.
  expect(existsSync(join(copy, "dist/.build-stamp"))).toBe(true);
}, 180_000);
