/**
 * An example of examples/ copied alone into a folder of its own, as a user copies it: the engine's PATH
 * for it, and its dev stack pointed at a test's stage.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { expect } from "vitest";
import { engineGate } from "./engine";
import { EXAMPLES_HOST } from "./fixtures";
import type { Stage } from "./stage";

/**
 * The engine's PATH for an example: the CLI's folder, this Node, and the caller's PATH without any
 * node_modules/.bin. This repository's has `pulumi-resource-service`, which the engine would take in place
 * of the plugin the example names in its Pulumi.yaml, and a copy on its own has none of it.
 */
export function pathOfACopyAlone(): string {
  const inherited = (process.env.PATH ?? "").split(delimiter);
  const outside = inherited.filter((entry) => !/node_modules[\\/]\.bin$/.test(entry));
  return [dirname(engineGate().cli!), dirname(process.execPath), ...outside].join(delimiter);
}

/** Points the dev stack's file at the stage: each key must be in the file already, as the README has it. */
export function pointDevStackAt(stage: Stage, dir: string, project: string): void {
  const file = join(dir, "Pulumi.dev.yaml");
  let text = readFileSync(file, "utf8");
  expect(text, "the dev stack verifies the host the sandbox's seed knows").toContain(
    `${project}:host: ${EXAMPLES_HOST}\n`,
  );
  for (const [key, value] of [
    ["service:baseUrl", stage.sandbox.url],
    ["service:hostOverrides", `'${JSON.stringify({ [EXAMPLES_HOST]: stage.originUrl })}'`],
    [`${project}:verificationDir`, stage.filesDir],
  ]) {
    const line = new RegExp(`^(  ${key}: ).+$`, "m");
    expect(text, `Pulumi.dev.yaml sets ${key}`).toMatch(line);
    text = text.replace(line, `$1${value}`);
  }
  writeFileSync(file, text);
}
