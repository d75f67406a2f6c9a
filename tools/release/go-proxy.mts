/**
 * The Go SDK as a module-proxy folder, `<proxy>/<module>/@v/{list,<v>.info,<v>.mod,<v>.zip}`, which
 * `GOPROXY=file://<proxy>` reads as it reads the proxy that serves a version tag. The zip follows
 * golang.org/x/mod/zip (tools/release/go-module-zip), with the repository's LICENSE, as the proxy adds
 * it to a module in a subfolder.
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dirname, "../..");

/** The module path that sdk/go/go.mod declares. */
function goModulePath(): string {
  const goMod = readFileSync(join(root, "sdk/go/go.mod"), "utf8");
  const path = /^module\s+(\S+)/m.exec(goMod)?.[1];
  if (!path) throw new Error("sdk/go/go.mod declares no module: run `npm run sdk` to generate it again.");
  return path;
}

/** A module path as the proxy protocol spells it in URLs and folders: each capital as `!` and lower case. */
export function escapedPath(path: string): string {
  return path.replace(/[A-Z]/g, (capital) => `!${capital.toLowerCase()}`);
}

/**
 * Writes the module at `version` (a tag such as v0.1.0) into `<outDir>/<proxyDir>`, working in `workDir`;
 * `mtime` (seconds) is the version's time. Returns the module path and the zip's path in `outDir`.
 */
export function buildGoProxy(options: {
  readonly version: string;
  readonly workDir: string;
  readonly outDir: string;
  readonly proxyDir: string;
  readonly mtime: number;
}): { module: string; zip: string } {
  const { version, workDir, outDir, proxyDir, mtime } = options;
  const module = goModulePath();
  const source = join(workDir, "go");
  rmSync(source, { recursive: true, force: true });
  cpSync(join(root, "sdk/go"), source, { recursive: true });
  cpSync(join(root, "LICENSE"), join(source, "LICENSE"));
  const versions = join(proxyDir, escapedPath(module), "@v");
  mkdirSync(join(outDir, versions), { recursive: true });
  const zip = join(versions, `${version}.zip`);
  try {
    execFileSync("go", ["run", ".", source, module, version, join(outDir, zip)], {
      cwd: join(import.meta.dirname, "go-module-zip"),
      stdio: ["ignore", "pipe", "pipe"],
    });
  } catch (error) {
    const said = (error as { stderr?: Buffer }).stderr?.toString().trim();
    throw new Error(
      `Could not zip the Go SDK as ${module}@${version}: ${said || (error as Error).message}. It needs Go 1.25 or later on PATH.`,
    );
  }
  cpSync(join(source, "go.mod"), join(outDir, versions, `${version}.mod`));
  const time = new Date(mtime * 1000).toISOString().replace(/\.000Z$/, "Z");
  writeFileSync(
    join(outDir, versions, `${version}.info`),
    `${JSON.stringify({ Version: version, Time: time })}\n`,
  );
  writeFileSync(join(outDir, versions, "list"), `${version}\n`);
  return { module, zip };
}
