/**
 * An example of examples/ copied alone into a folder of its own, as a user copies it: the engine's PATH
 * for it, and its dev stack pointed at a test's stage.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { expect } from "vitest";
import { engineGate, type PulumiProject } from "./engine";
import { EXAMPLES_HOST, HOOKS_TOKEN, SECRET } from "./fixtures";
import { expectNoSecretIn, type Stage } from "./stage";

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

/**
 * An example's `dev` stack as its README runs it, on `stage`: the two secrets set, `pulumi up` (one active
 * webhook), an unchanged preview with no API call, `pulumi destroy`, and no secret in the checkpoint.
 * `afterUp` checks what the caller needs right after the up.
 */
export async function runDevStack(
  stage: Stage,
  project: PulumiProject,
  name: string,
  afterUp: () => Promise<void> | void = () => {},
): Promise<void> {
  await project.run(["stack", "init", "dev"]);
  await project.config("service:token", HOOKS_TOKEN, true);
  await project.config("webhookSecret", SECRET, true);

  await project.run(["up", "--yes"]);
  await afterUp();
  expect(await stage.active()).toHaveLength(1);

  const mark = stage.mark();
  await project.run(["preview", "--expect-no-changes"]);
  expect(stage.callsSince(mark)).toBe(0);

  await project.run(["destroy", "--yes"]);
  expect(await stage.active()).toEqual([]);
  expectNoSecretIn([project.checkpointFile(name, "dev")], stage);
}
