/**
 * What the scripts that write a generated file at the repository's root share. Their generators read
 * the sources' TypeScript, so they run from the compiled tree, built first; `--check` only compares the
 * file with what the generator makes, and exits 1 on a difference.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { build } from "../build/build.mts";

/** The repository's root, where the generated files live. */
export const root = join(import.meta.dirname, "../..");

/** The compiled module of tools/codegen/`name` (such as `schema.js`), with dist/ built first. */
export function compiledGenerator<T>(name: string): T {
  build();
  return createRequire(import.meta.url)(join(root, "dist/tools/codegen", name)) as T;
}

/**
 * Writes `text` to `file` at the root; with `--check` on the command line, compares them instead and
 * exits 1, saying that `file` differs from what `source` generates and to run `command`.
 */
export function writeGenerated(file: string, text: string, source: string, command: string): void {
  const path = join(root, file);
  if (process.argv.includes("--check")) {
    if (readFileSync(path, "utf8") !== text) {
      process.stderr.write(`${file} differs from what ${source} generates: run \`${command}\`.\n`);
      process.exit(1);
    }
  } else {
    writeFileSync(path, text);
    process.stdout.write(`Wrote ${file}.\n`);
  }
}
