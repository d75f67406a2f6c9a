/**
 * The plugin binaries of the release (`npm run release`, dist/release/), each checked where it can be,
 * with no engine: the linux-amd64 executable run on this machine with a hostile NODE_OPTIONS.
 * `npm run test:release` builds the release first.
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Manifest, readManifest } from "../../tools/release/manifest.mts";
import { executableName } from "../../tools/release/targets.mts";
import { portPrinted } from "../helpers/release-registries";

const root = join(__dirname, "../..");
const releaseDir = join(root, "dist/release");
/** How long the plugin binary may take to print its port. */
const PLUGIN_START_MS = 20_000;

let manifest: Manifest;
let work: string;
/** Each platform's executable, unpacked from its tarball, by `<os>-<arch>`. */
const executables = new Map<string, string>();

beforeAll(() => {
  if (!existsSync(releaseDir))
    throw new Error(
      `${releaseDir} does not exist: run \`npm run release\` first (npm run test:release does).`,
    );
  manifest = readManifest(releaseDir);
  work = mkdtempSync(join(tmpdir(), "service-pulumi-release-binary-"));
  for (const { os, arch, file } of manifest.plugin.files) {
    const dir = join(work, `${os}-${arch}`);
    mkdirSync(dir);
    execFileSync("tar", ["-xzf", join(releaseDir, file), "-C", dir]);
    executables.set(`${os}-${arch}`, join(dir, executableName({ os })));
  }
});
afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

/**
 * Starts `executable` with `env`, waits for the port it prints, and stops it. The engine's address is one
 * nothing listens on: the plugin serves until it is stopped all the same.
 */
async function servesWith(executable: string, env: NodeJS.ProcessEnv): Promise<number> {
  const child = spawn(executable, ["127.0.0.1:1"], { env, stdio: ["ignore", "pipe", "pipe"] });
  try {
    return await portPrinted(child, executable, PLUGIN_START_MS);
  } finally {
    child.kill();
  }
}

describe.runIf(process.platform === "linux" && process.arch === "x64")(
  "the linux-amd64 plugin binary, in a shell whose NODE_OPTIONS loads code",
  () => {
    // A `--require ./.pnp.cjs`, an `--import tsx` or an APM agent in a team's shell or CI must neither break
    // the plugin nor run in the process that holds the API token.
    it.each([
      ["--require", (file: string) => file, "cjs"],
      ["--import", (file: string) => pathToFileURL(file).href, "mjs"],
    ])("serves with NODE_OPTIONS=%s <a script>, and the script never runs", async (flag, spell, ext) => {
      const dir = mkdtempSync(join(work, "node-options-"));
      const marker = join(dir, "ran");
      const script = join(dir, `hostile.${ext}`);
      const write = `writeFileSync(${JSON.stringify(marker)}, "ran");\n`;
      writeFileSync(
        script,
        ext === "mjs"
          ? `import { writeFileSync } from "node:fs";\n${write}`
          : `const { writeFileSync } = require("node:fs");\n${write}`,
      );
      const env = { PATH: process.env.PATH, NODE_OPTIONS: `${flag} ${spell(script)}` };
      // The same NODE_OPTIONS does reach a plain Node: the script and its marker work.
      execFileSync(process.execPath, ["-e", ""], { env });
      expect(readdirSync(dir)).toContain("ran");
      rmSync(marker);

      expect(await servesWith(executables.get("linux-amd64")!, env)).toBeGreaterThan(0);
      expect(readdirSync(dir)).not.toContain("ran");
    });
  },
);
