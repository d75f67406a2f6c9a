/**
 * The little of Mach-O (Apple's executable format, 64-bit, one architecture) that the macOS plugin
 * binaries need, read and written on Linux: Node's own code signature removed before the blob is injected
 * (what `codesign --remove-signature` does), and the header, load commands, segments and signature read
 * back, to check each binary where it cannot run.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

/** The magic number of a 64-bit little-endian Mach-O file. */
export const MH_MAGIC_64 = 0xfeedfacf;
/** Mach-O CPU types, by Pulumi's architecture name. */
export const CPU_TYPES: Readonly<Record<string, number>> = { arm64: 0x0100000c, amd64: 0x01000007 };
const LC_SEGMENT_64 = 0x19;
const LC_CODE_SIGNATURE = 0x1d;
/** Segments end on 16 KiB pages on arm64, a multiple of x86-64's 4 KiB. */
const PAGE = 0x4000;

/** A section of a segment: its name and where its bytes lie in the file. */
export interface MachOSection {
  readonly name: string;
  readonly offset: number;
  readonly size: number;
}

/** A 64-bit Mach-O file's header and load commands, as far as the plugin binaries' checks read them. */
export interface MachO {
  readonly cpuType: number;
  /** Every load command's type, in order. */
  readonly commands: readonly number[];
  /** Each LC_SEGMENT_64 by name, with its sections and its place in the file. */
  readonly segments: ReadonlyMap<
    string,
    { readonly fileOffset: number; readonly fileSize: number; readonly sections: readonly MachOSection[] }
  >;
  /** Where LC_CODE_SIGNATURE puts the signature, if the file has one. */
  readonly signature?: { readonly offset: number; readonly size: number };
}

const cString = (bytes: Buffer) => bytes.toString("latin1").replace(/\0.*$/s, "");

/** Reads a 64-bit Mach-O file's header and load commands; throws, naming `what`, on any other file. */
export function readMachO(file: Buffer, what: string): MachO {
  if (file.length < 32 || file.readUInt32LE(0) !== MH_MAGIC_64)
    throw new Error(
      `${what} is not a 64-bit Mach-O executable (magic ${file.readUInt32LE(0).toString(16)}).`,
    );
  const commands: number[] = [];
  const segments = new Map<string, { fileOffset: number; fileSize: number; sections: MachOSection[] }>();
  let signature: MachO["signature"];
  let at = 32;
  for (let i = 0; i < file.readUInt32LE(16); i++) {
    const cmd = file.readUInt32LE(at);
    commands.push(cmd);
    if (cmd === LC_SEGMENT_64) {
      const sections: MachOSection[] = [];
      for (let s = 0; s < file.readUInt32LE(at + 64); s++) {
        const section = at + 72 + s * 80;
        sections.push({
          name: cString(file.subarray(section, section + 16)),
          size: Number(file.readBigUInt64LE(section + 40)),
          offset: file.readUInt32LE(section + 48),
        });
      }
      segments.set(cString(file.subarray(at + 8, at + 24)), {
        fileOffset: Number(file.readBigUInt64LE(at + 40)),
        fileSize: Number(file.readBigUInt64LE(at + 48)),
        sections,
      });
    } else if (cmd === LC_CODE_SIGNATURE) {
      signature = { offset: file.readUInt32LE(at + 8), size: file.readUInt32LE(at + 12) };
    }
    at += file.readUInt32LE(at + 4);
  }
  return { cpuType: file.readUInt32LE(4), commands, segments, signature };
}

/**
 * Removes the code signature of the Mach-O executable `path`, as `codesign --remove-signature` does: its
 * LC_CODE_SIGNATURE command goes, the signature's bytes at the end of __LINKEDIT are cut off, and
 * __LINKEDIT ends where they began. Node's signature covers Node's bytes only; once the blob is injected
 * nothing could verify it, and `rcodesign sign` then writes a signature of the whole file in its place.
 */
export function removeCodeSignature(path: string): void {
  const file = readFileSync(path);
  const { signature } = readMachO(file, path);
  if (!signature) return;
  if (signature.offset + signature.size !== file.length)
    throw new Error(
      `${path}: its code signature does not end the file, so it cannot be cut off. Check the Node package's binary with \`rcodesign print-signature-info\`.`,
    );
  let at = 32;
  const ncmds = file.readUInt32LE(16);
  for (let i = 0; i < ncmds; i++) {
    const cmd = file.readUInt32LE(at);
    const size = file.readUInt32LE(at + 4);
    if (cmd === LC_SEGMENT_64 && cString(file.subarray(at + 8, at + 24)) === "__LINKEDIT") {
      const fileSize = signature.offset - Number(file.readBigUInt64LE(at + 40));
      file.writeBigUInt64LE(BigInt(Math.ceil(fileSize / PAGE) * PAGE), at + 32);
      file.writeBigUInt64LE(BigInt(fileSize), at + 48);
    }
    if (cmd === LC_CODE_SIGNATURE) {
      const end = 32 + file.readUInt32LE(20);
      // The commands after it move up over it; the space it leaves at the end is zeroes, as before them.
      file.copy(file, at, at + size, end);
      file.fill(0, end - size, end);
      file.writeUInt32LE(ncmds - 1, 16);
      file.writeUInt32LE(file.readUInt32LE(20) - size, 20);
      break;
    }
    at += size;
  }
  writeFileSync(path, file.subarray(0, signature.offset));
}

/** What a code signature (the SuperBlob LC_CODE_SIGNATURE points at) says, as the checks read it. */
export interface CodeSignature {
  /** The CodeDirectory's identifier: the executable's name for an ad hoc signature made here. */
  readonly identifier: string;
  /** Ad hoc: signed with no certificate (the CodeDirectory's CS_ADHOC flag). */
  readonly adhoc: boolean;
  /** The bytes of its CMS signature blob: a certificate's signature; none (or empty) when ad hoc. */
  readonly cmsBytes: number;
}

/** Reads the code signature of a Mach-O file, if it has one. */
export function readCodeSignature(file: Buffer, what: string): CodeSignature | undefined {
  const { signature } = readMachO(file, what);
  if (!signature) return undefined;
  const blob = file.subarray(signature.offset, signature.offset + signature.size);
  // Big-endian throughout: the SuperBlob's magic, then its index of (type, offset) pairs.
  if (blob.readUInt32BE(0) !== 0xfade0cc0) throw new Error(`${what}: its code signature is no SuperBlob.`);
  let identifier = "";
  let adhoc = false;
  let cmsBytes = 0;
  for (let i = 0; i < blob.readUInt32BE(8); i++) {
    const offset = blob.readUInt32BE(12 + i * 8 + 4);
    const magic = blob.readUInt32BE(offset);
    const length = blob.readUInt32BE(offset + 4);
    if (magic === 0xfade0c02 && blob.readUInt32BE(12 + i * 8) === 0) {
      adhoc = (blob.readUInt32BE(offset + 12) & 0x2) !== 0;
      identifier = cString(blob.subarray(offset + blob.readUInt32BE(offset + 20)));
    } else if (magic === 0xfade0b01) {
      cmsBytes = length - 8;
    }
  }
  return { identifier, adhoc, cmsBytes };
}

/**
 * rcodesign 0.29, from crates.io, installed once by cargo into the user's cache, beside the engine's
 * build (tools/engine/pulumi-engine.mts): a fresh clone, as CI makes, reuses it instead of compiling it.
 */
const RCODESIGN_VERSION = "0.29.0";
const RCODESIGN_ROOT = join(
  process.env.XDG_CACHE_HOME || join(homedir(), ".cache"),
  "service-pulumi",
  `rcodesign-${RCODESIGN_VERSION}`,
);

/**
 * The `rcodesign` executable (the crate apple-codesign), which signs and verifies Mach-O files on Linux;
 * installed with `cargo install` on first use (about 12 minutes on two cores), then cached.
 */
export function rcodesign(): string {
  const binary = join(RCODESIGN_ROOT, "bin", "rcodesign");
  if (existsSync(binary)) return binary;
  try {
    execFileSync(
      "cargo",
      ["install", "apple-codesign", "--version", RCODESIGN_VERSION, "--locked", "--root", RCODESIGN_ROOT],
      { stdio: ["ignore", "ignore", "pipe"] },
    );
  } catch (error) {
    const said = (error as { stderr?: Buffer }).stderr?.toString().trim().split("\n").slice(-3).join(" ");
    throw new Error(
      `Could not install rcodesign, which signs the macOS plugin binaries: \`cargo install apple-codesign@${RCODESIGN_VERSION}\` failed (${said ?? (error as Error).message}). ` +
        "Install Rust's cargo (https://rustup.rs) and make crates.io reachable, then run `npm run release` again.",
    );
  }
  return binary;
}

/**
 * What `rcodesign verify` finds wrong with the signature of `path`: none when every page's digest, the
 * CodeDirectory and the layout hold. rcodesign 0.29 also reports the empty CMS blob of every ad hoc
 * signature as "CMS error: missing further values": that line is left out when the signature is ad hoc,
 * with no certificate's signature in it (readCodeSignature), and only then.
 */
export function signatureProblems(path: string): string[] {
  const signature = readCodeSignature(readFileSync(path), path);
  if (!signature) return [`${path} has no code signature`];
  let printed: string;
  try {
    printed = execFileSync(rcodesign(), ["verify", path], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
  } catch (error) {
    const { stdout = "", stderr = "" } = error as { stdout?: string; stderr?: string };
    printed = `${stdout}\n${stderr}`;
  }
  return printed
    .split("\n")
    .map((line) => line.trim())
    .filter(
      (line) =>
        line !== "" &&
        !line.startsWith("(the verify command is known to be buggy") &&
        line !== "Error: problems reported during verification" &&
        !(
          signature.adhoc &&
          signature.cmsBytes === 0 &&
          line.startsWith("CMS error: missing further values")
        ),
    );
}
