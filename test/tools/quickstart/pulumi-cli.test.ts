import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { findPulumiCli } from "../../../tools/quickstart/pulumi-cli";
import { usePathFolders } from "../../helpers/path-folders";

const pathDir = usePathFolders("pulumi-cli-search-");

const posix = (...dirs: string[]) => ({ env: { PATH: dirs.join(":") }, platform: "linux" as const });

describe.skipIf(process.platform === "win32")("finding the Pulumi CLI on a POSIX PATH", () => {
  it("finds an executable file called pulumi", () => {
    const bin = pathDir({ pulumi: "exe" });
    expect(findPulumiCli(posix(bin))).toBe(join(bin, "pulumi"));
  });

  it("skips a directory called pulumi and a pulumi without an execute bit, and goes on searching", () => {
    const folder = pathDir({ pulumi: "dir" });
    const plain = pathDir({ pulumi: "file" });
    const real = pathDir({ pulumi: "exe" });
    expect(findPulumiCli(posix(folder, plain))).toBeUndefined();
    expect(findPulumiCli(posix(folder, plain, real))).toBe(join(real, "pulumi"));
  });

  it("does not read an empty PATH entry as the current directory", () => {
    const cwd = pathDir({ pulumi: "exe" });
    const previous = process.cwd();
    process.chdir(cwd);
    try {
      expect(findPulumiCli({ env: { PATH: ":" }, platform: "linux" })).toBeUndefined();
    } finally {
      process.chdir(previous);
    }
  });
});

describe("finding the Pulumi CLI on a Windows PATH", () => {
  it("finds pulumi.exe through PATHEXT, with Path spelled as Windows spells it", () => {
    const bin = pathDir({ "pulumi.exe": "file" });
    const env = { Path: `"${bin}"`, PATHEXT: ".COM;.EXE;.BAT;.CMD" };
    expect(findPulumiCli({ env, platform: "win32" })).toBe(join(bin, "pulumi.exe"));
  });

  it("does not take a pulumi without a runnable extension, nor a folder called pulumi.exe", () => {
    const bin = pathDir({ pulumi: "exe", "pulumi.exe": "dir" });
    expect(findPulumiCli({ env: { PATH: bin }, platform: "win32" })).toBeUndefined();
  });
});
