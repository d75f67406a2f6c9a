/**
 * The committed SDKs (sdk/python, sdk/go, sdk/dotnet) are exactly what the real CLI's
 * `pulumi package gen-sdk` makes of the committed schema.json, so a schema change never ships with stale
 * SDKs, and a reviewer sees in the diff what it does to each language.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, expect, it } from "vitest";
import { describeUnderEngine } from "../helpers/engine";

const root = join(__dirname, "../..");

/** Every file under dir, by its path relative to dir, with its content. */
function tree(dir: string): Record<string, string> {
  const files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
  return Object.fromEntries(
    files.map((entry) => {
      const path = join(entry.parentPath, entry.name);
      return [relative(dir, path), readFileSync(path, "utf8")];
    }),
  );
}

describeUnderEngine("the committed SDKs", () => {
  const out = mkdtempSync(join(tmpdir(), "service-pulumi-sdk-check-"));
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it("are what `npm run sdk` generates from schema.json", () => {
    execFileSync(process.execPath, [join(root, "tools/codegen/sdk.mts"), "--out", out], {
      cwd: root,
      stdio: "pipe",
    });
    const committed = tree(join(root, "sdk"));
    const generated = tree(out);
    expect(Object.keys(committed).sort(), "run `npm run sdk` and commit sdk/").toEqual(
      Object.keys(generated).sort(),
    );
    for (const [path, text] of Object.entries(generated)) {
      expect(committed[path], `sdk/${path} differs: run \`npm run sdk\` and commit sdk/`).toBe(text);
    }
  });
});
