/**
 * A fake `go` for `npm run engine` (SERVICE_ENGINE_GO names it): a slow `go build` that prints a package
 * name now and then as `go build -v` does and writes a small file per binary, and a `go list -m` that
 * names a fake sdk module folder. Every call is logged, so that a test counts the builds. Nothing of the
 * real engine is built, and the real engine cache is never touched.
 */
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The fake's program: plain JavaScript, run by this test run's node. */
const FAKE_GO = String.raw`
const { appendFileSync, mkdirSync, writeFileSync } = require("node:fs");
const { join } = require("node:path");
const args = process.argv.slice(2);
appendFileSync(process.env.FAKE_GO_LOG, JSON.stringify(args) + "\n");
if (args[0] === "list") {
  process.stdout.write(process.env.FAKE_GO_SDK + "\n");
  return;
}
const out = args[args.indexOf("-o") + 1];
const packages = args.slice(args.indexOf("-o") + 2);
// Binaries are named for a package's last element that is not a major version (…/pulumi-language-dotnet/v3).
const binaryOf = (pkg) => pkg.split("/").filter((part) => !/^v\d+$/.test(part)).at(-1);
const content = (name) => "fake " + name + " " + (process.env.FAKE_GO_CONTENT ?? "1") + "\n";
// A build writes its output early, as the linker does, and completes it at the end.
if (!out.endsWith("/")) writeFileSync(out, "");
const steps = 10;
let step = 0;
const timer = setInterval(() => {
  step += 1;
  process.stderr.write("example.com/fake/package" + step + "\n");
  if (step < steps) return;
  clearInterval(timer);
  if (out.endsWith("/")) {
    mkdirSync(out, { recursive: true });
    for (const pkg of packages) writeFileSync(join(out, binaryOf(pkg)), content(binaryOf(pkg)));
  } else {
    writeFileSync(out, content("pulumi"));
  }
}, Number(process.env.FAKE_GO_BUILD_MS ?? 0) / steps);
`;

/** A fake go in `dir`: its path, the environment it reads, and the builds it was asked for. */
export interface FakeGo {
  /** The executable to name in SERVICE_ENGINE_GO. */
  readonly path: string;
  /** The environment of a run: add it to the engine script's. */
  readonly env: NodeJS.ProcessEnv;
  /** The argument lists of every `go build` so far. */
  builds(): string[][];
}

/** Writes a fake go whose every build takes `buildMs`, with a fake sdk module folder beside it. */
export function fakeGo(dir: string, buildMs: number): FakeGo {
  const sdk = join(dir, "sdk");
  for (const [file, text] of [
    ["nodejs/dist/pulumi-resource-pulumi-nodejs", "#!/bin/sh\n# the dynamic-provider plugin\n"],
    ["python/cmd/pulumi-language-python-exec", "#!/usr/bin/env python3\n# the Python exec\n"],
  ] as const) {
    mkdirSync(join(sdk, file, ".."), { recursive: true });
    writeFileSync(join(sdk, file), text, { mode: 0o444 });
  }
  const script = join(dir, "fake-go.cjs");
  writeFileSync(script, `"use strict";\n(() => {${FAKE_GO}})();\n`);
  const path = join(dir, "go");
  writeFileSync(path, `#!/bin/sh\nexec "${process.execPath}" "${script}" "$@"\n`);
  chmodSync(path, 0o755);
  const log = join(dir, "go.log");
  writeFileSync(log, "");
  return {
    path,
    env: {
      SERVICE_ENGINE_GO: path,
      FAKE_GO_LOG: log,
      FAKE_GO_SDK: sdk,
      FAKE_GO_BUILD_MS: String(buildMs),
    },
    builds: () =>
      readFileSync(log, "utf8")
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as string[])
        .filter((args) => args[0] === "build"),
  };
}
