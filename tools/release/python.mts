/**
 * The Python SDK's wheel and sdist, built by `python -m build` from a copy of sdk/python (setuptools writes
 * build/ and *.egg-info beside the sources it builds). The build frontend lives in a virtualenv kept
 * between runs; its isolated build environment takes setuptools from the package index.
 */
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dirname, "../..");
/** Where the Python tools of a release live, one virtualenv per tool, kept between runs. */
const TOOLS_DIR = join(root, "node_modules/.cache/service-pulumi-release");
/** The build frontend, at a version known to build this SDK. */
const BUILD_PACKAGE = "build==1.6.1";

/** The Python of this machine: python3, else python. */
function python(): string {
  for (const candidate of ["python3", "python"]) {
    try {
      execFileSync(candidate, ["--version"], { stdio: "ignore" });
      return candidate;
    } catch {}
  }
  throw new Error(
    "No python3 or python on PATH: install Python 3.9 or later, with venv (the Python SDK's build and the schemathesis check run in a virtualenv).",
  );
}

/**
 * The python of a virtualenv named `name` under `parent` (the release cache unless given), with
 * `requirement` (a pinned `package==version`) installed, made on its first use.
 */
export function pythonTool(name: string, requirement: string, parent = TOOLS_DIR): string {
  const venv = join(parent, name);
  const venvPython = join(venv, process.platform === "win32" ? "Scripts/python.exe" : "bin/python");
  if (existsSync(venvPython)) return venvPython;
  mkdirSync(venv, { recursive: true });
  try {
    execFileSync(python(), ["-m", "venv", venv], { stdio: ["ignore", "ignore", "pipe"] });
    execFileSync(venvPython, ["-m", "pip", "install", "--quiet", requirement], {
      stdio: ["ignore", "ignore", "pipe"],
    });
  } catch (error) {
    rmSync(venv, { recursive: true, force: true });
    throw new Error(`Could not install ${requirement} in ${venv}: ${(error as Error).message}`);
  }
  return venvPython;
}

/** The wheel and sdist written to `outDir`, by file name. */
export interface PythonFiles {
  readonly wheel: string;
  readonly sdist: string;
}

/**
 * Builds sdk/python's wheel and sdist into `outDir`, working in `workDir`; `mtime` (seconds) stamps their
 * files, so that the same sources give the same archives.
 */
export function buildPythonSdk(workDir: string, outDir: string, mtime: number): PythonFiles {
  const source = join(workDir, "python");
  rmSync(source, { recursive: true, force: true });
  cpSync(join(root, "sdk/python"), source, { recursive: true });
  const built = join(workDir, "python-dist");
  rmSync(built, { recursive: true, force: true });
  try {
    execFileSync(pythonTool("python-build", BUILD_PACKAGE), ["-m", "build", "--outdir", built, source], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, SOURCE_DATE_EPOCH: String(mtime) },
    });
  } catch (error) {
    const said = (error as { stderr?: Buffer }).stderr?.toString().trim();
    throw new Error(`python -m build failed for sdk/python: ${said || (error as Error).message}`);
  }
  const files = readdirSync(built);
  const wheel = files.find((file) => file.endsWith(".whl"));
  const sdist = files.find((file) => file.endsWith(".tar.gz"));
  if (!wheel || !sdist)
    throw new Error(`python -m build wrote ${files.join(", ") || "nothing"}, not a wheel and an sdist.`);
  for (const file of [wheel, sdist]) cpSync(join(built, file), join(outDir, file));
  return { wheel, sdist };
}
