/**
 * The plugin binaries of the release (`npm run release`, dist/release/), each checked where it can be,
 * with no engine (release.test.ts runs linux-amd64 under the engine):
 * - linux-amd64, run on this machine with a hostile NODE_OPTIONS;
 * - linux-arm64, run under qemu-user when `qemu-aarch64-static` is on PATH, and its ELF header and blob;
 * - windows-amd64: its PE header and the blob embedded as a resource;
 * - darwin-arm64 and darwin-amd64, which cannot run here: the Mach-O header, CPU type and load commands,
 *   the blob in its NODE_SEA segment, and an ad hoc signature that `rcodesign verify` accepts, with nothing
 *   left of Node's own.
 * `npm run test:release` builds the release first.
 */
import { execFileSync, spawn } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findExecutable } from "../../tools/quickstart/pulumi-cli";
import { CPU_TYPES, readCodeSignature, readMachO, signatureProblems } from "../../tools/release/macho.mts";
import { type Manifest, readManifest } from "../../tools/release/manifest.mts";
import { SEA_FUSE } from "../../tools/release/plugin-binary.mts";
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
async function servesWith(
  executable: string,
  env: NodeJS.ProcessEnv,
  command: readonly string[] = [],
): Promise<number> {
  const [program, ...args] = [...command, executable, "127.0.0.1:1"];
  const child = spawn(program!, args, { env, stdio: ["ignore", "pipe", "pipe"] });
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

/** The plugin bundle's own words (tools/release/plugin-entry.ts), which its blob carries as source text. */
const BUNDLE_TEXT = "The service provider plugin could not start";
/** The first four bytes of a single-executable blob (Node's src/node_sea.h, kMagic 0x143da20, little-endian). */
const SEA_MAGIC = Buffer.from([0x20, 0xda, 0x43, 0x01]);
/** Where qemu-user runs an arm64 Linux executable on this machine, if Debian's qemu-user-static is installed. */
const QEMU = findExecutable("qemu-aarch64-static", { env: process.env });

/** The executable of `platform`, read. */
const bytesOf = (platform: string) => readFileSync(executables.get(platform)!);

describe("the linux-arm64 plugin binary", () => {
  it("is an arm64 ELF executable with the plugin's blob injected and its fuse on", () => {
    const file = bytesOf("linux-arm64");
    expect(file.subarray(0, 4).toString("latin1")).toBe("\x7fELF");
    // e_machine: EM_AARCH64.
    expect(file.readUInt16LE(18)).toBe(183);
    expect(file.includes(SEA_MAGIC)).toBe(true);
    expect(file.includes(BUNDLE_TEXT)).toBe(true);
    expect(file.includes(`${SEA_FUSE}:1`)).toBe(true);
  });

  it.skipIf(!QEMU)(
    `serves under qemu-user with a hostile NODE_OPTIONS, and the script never runs${QEMU ? "" : " (skipped: no qemu-aarch64-static on PATH; Debian's qemu-user-static installs it)"}`,
    async () => {
      const dir = mkdtempSync(join(work, "qemu-"));
      const script = join(dir, "hostile.cjs");
      writeFileSync(
        script,
        `require("node:fs").writeFileSync(${JSON.stringify(join(dir, "ran"))}, "ran");\n`,
      );
      const env = { PATH: process.env.PATH, NODE_OPTIONS: `--require ${script}` };
      expect(await servesWith(executables.get("linux-arm64")!, env, [QEMU!])).toBeGreaterThan(0);
      expect(readdirSync(dir)).not.toContain("ran");
    },
  );
});

describe("the windows-amd64 plugin binary, which cannot run here", () => {
  it("is an x86-64 PE32+ executable with the plugin's blob as its NODE_SEA_BLOB resource and its fuse on", () => {
    const file = bytesOf("windows-amd64");
    expect(file.subarray(0, 2).toString("latin1")).toBe("MZ");
    const pe = file.readUInt32LE(0x3c);
    expect(file.subarray(pe, pe + 4).toString("latin1")).toBe("PE\0\0");
    // IMAGE_FILE_MACHINE_AMD64, then the optional header's magic: PE32+.
    expect(file.readUInt16LE(pe + 4)).toBe(0x8664);
    expect(file.readUInt16LE(pe + 24)).toBe(0x20b);
    // A resource's name is UTF-16 in its directory.
    expect(file.includes(Buffer.from("NODE_SEA_BLOB", "utf16le"))).toBe(true);
    expect(file.includes(SEA_MAGIC)).toBe(true);
    expect(file.includes(BUNDLE_TEXT)).toBe(true);
    expect(file.includes(`${SEA_FUSE}:1`)).toBe(true);
  });
});

describe.each([
  ["darwin-arm64", "arm64"],
  ["darwin-amd64", "amd64"],
])("the %s plugin binary, which cannot run here", (platform, arch) => {
  it("is a 64-bit Mach-O executable for its CPU, with the plugin's blob in its NODE_SEA segment and its fuse on", () => {
    const file = bytesOf(platform);
    const macho = readMachO(file, platform);
    expect(macho.cpuType).toBe(CPU_TYPES[arch]);
    const segments = [...macho.segments.keys()];
    expect(segments).toContain("NODE_SEA");
    // The signature must end the file, in __LINKEDIT, the last segment.
    expect(segments.at(-1)).toBe("__LINKEDIT");
    const [section] = macho.segments.get("NODE_SEA")!.sections;
    const blob = file.subarray(section!.offset, section!.offset + section!.size);
    expect(blob.subarray(0, 4)).toEqual(SEA_MAGIC);
    expect(blob.includes(BUNDLE_TEXT)).toBe(true);
    expect(file.includes(`${SEA_FUSE}:1`)).toBe(true);
  });

  it("is signed ad hoc as pulumi-resource-service, rcodesign verify finds nothing wrong, and nothing is left of Node's signature", () => {
    const file = bytesOf(platform);
    const macho = readMachO(file, platform);
    // LC_CODE_SIGNATURE: exactly one, at the end of the file.
    expect(macho.commands.filter((cmd) => cmd === 0x1d)).toHaveLength(1);
    expect(macho.signature!.offset + macho.signature!.size).toBe(file.length);
    // Node's own is signed by its certificate (a CMS blob) as "node"; ours has no certificate.
    expect(readCodeSignature(file, platform)).toEqual({
      identifier: "pulumi-resource-service",
      adhoc: true,
      cmsBytes: 0,
    });
    expect(signatureProblems(executables.get(platform)!)).toEqual([]);
  });
});
