import { chmodSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { afterEach, expect, it, vi } from "vitest";
import { pathWithoutNode } from "../../helpers/release-registries";

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A new folder outside the repository holding `files`, each executable. */
function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "service-pulumi-path-"));
  made.push(dir);
  for (const [name, text] of Object.entries(files)) {
    writeFileSync(join(dir, name), text);
    chmodSync(join(dir, name), 0o755);
  }
  return dir;
}

// Regression: a PATH that led with a project's node_modules/.bin kept its pulumi-resource-service
// launcher (a node script), which the engine ran in place of the plugin the release test installs.
it("keeps a Node folder's other tools but neither node nor the scripts that run on it", () => {
  const bin = folder({
    node: "#!/bin/sh\n",
    "pulumi-resource-service": "#!/usr/bin/env node\n'use strict';\n",
    tool: "#!/bin/sh\necho tool\n",
  });
  vi.stubEnv("PATH", `${bin}${delimiter}${process.env.PATH}`);
  const parent = folder({});
  pathWithoutNode([], parent);
  const copy = readdirSync(join(parent, "path-0"));
  expect(copy).toContain("tool");
  expect(copy).not.toContain("node");
  expect(copy).not.toContain("pulumi-resource-service");
});
