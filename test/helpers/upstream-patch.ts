/**
 * docs/upstream/pulumi-nodejs-detailed-diff.patch, put into an installed `@pulumi/pulumi` so that a test can
 * run the dynamic-provider host as a Pulumi release with the patch would. The patch changes Pulumi's
 * TypeScript sources and the package ships JavaScript, so: the module the patch adds is transpiled from the
 * patch's own text, and the one call the patch adds to the host goes after the line the patch puts it after.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";

const UPSTREAM_PATCH = join(__dirname, "../../docs/upstream/pulumi-nodejs-detailed-diff.patch");

/** The part of the patch for `file`, split into lines. */
function fileSection(patch: string, file: string): string[] {
  const section = patch.split(/^diff --git /m).find((part) => part.startsWith(`a/${file} `));
  if (!section) throw new Error(`${UPSTREAM_PATCH} does not change ${file}`);
  return section.split("\n");
}

const added = (lines: string[]) =>
  lines.filter((line) => line.startsWith("+") && !line.startsWith("+++")).map((line) => line.slice(1));

/** Applies the patch's runtime part to the `@pulumi/pulumi` installed in `sdk` (its folder). */
export function applyDetailedDiffPatch(sdk: string): void {
  const patch = readFileSync(UPSTREAM_PATCH, "utf8");

  const module = added(fileSection(patch, "sdk/nodejs/provider/detailedDiff.ts")).join("\n");
  const { outputText } = ts.transpileModule(module, {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2020 },
  });
  writeFileSync(join(sdk, "provider/detailedDiff.js"), outputText);

  // The host's hunk: the import (resolved here with a require) and one call, after the nearest context
  // line that is more than a closing brace, and the braces that follow it.
  const host = fileSection(patch, "sdk/nodejs/cmd/dynamic-provider/index.ts");
  const callAt = host.findIndex((line) => line.startsWith("+") && line.includes("setDetailedDiff("));
  const call = host[callAt]!.slice(1).trim();
  let contextAt = callAt - 1;
  while (host[contextAt]!.trim() === "}") contextAt--;
  const context = host[contextAt]!.slice(1).trim();
  const file = join(sdk, "cmd/dynamic-provider/index.js");
  const source = readFileSync(file, "utf8");
  let at = source.indexOf(context, source.indexOf("async diff("));
  if (at < 0) throw new Error(`${file} has no "${context}" in its diff: the patch does not fit this version`);
  at += context.length;
  for (let brace = contextAt + 1; brace < callAt; brace++) at = source.indexOf("}", at) + 1;
  writeFileSync(
    file,
    `${source.slice(0, at)}\nrequire("../../provider/detailedDiff").${call}${source.slice(at)}`,
  );
}
