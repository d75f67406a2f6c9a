/**
 * Finding the Pulumi CLI on PATH, for `npm run sandbox` (to say what to do next) and for the end-to-end
 * tests (to run or skip; they look for `go` and `python3` the same way). One implementation, so that the
 * two never disagree.
 */
import { accessSync, constants, statSync } from "node:fs";
import { join } from "node:path";

export interface SearchOptions {
  /** Defaults to process.env. */
  readonly env?: NodeJS.ProcessEnv;
  /** Defaults to process.platform; "win32" searches the way Windows does. */
  readonly platform?: NodeJS.Platform;
}

/** Windows treats environment variable names case-insensitively; a plain object does not. */
function envValue(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const key = Object.keys(env).find((k) => k.toUpperCase() === name);
  return key === undefined ? undefined : env[key];
}

function isExecutableFile(path: string, windows: boolean): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    // Windows has no execute bit: PATHEXT already limited the candidates to runnable extensions.
    if (!windows) accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The first PATH entry holding an executable regular file called `name`, as a shell finds it: on Windows
 * `name` plus each PATHEXT extension (pulumi.exe), elsewhere `name` with an execute bit. Directories and
 * non-executable files of that name are skipped, and so are empty PATH entries (which a shell would read
 * as the current directory).
 */
export function findExecutable(name: string, options: SearchOptions = {}): string | undefined {
  const env = options.env ?? process.env;
  const windows = (options.platform ?? process.platform) === "win32";
  const dirs = (envValue(env, "PATH") ?? "")
    .split(windows ? ";" : ":")
    .map((dir) => (windows ? dir.replace(/^"(.*)"$/, "$1") : dir))
    .filter((dir) => dir !== "");
  // Windows file names are case-insensitive; lower case gives the path a user would recognise (pulumi.exe).
  const extensions = windows
    ? (envValue(env, "PATHEXT") ?? ".COM;.EXE;.BAT;.CMD")
        .split(";")
        .filter((ext) => ext !== "")
        .map((ext) => ext.toLowerCase())
    : [""];
  for (const dir of dirs) {
    for (const ext of extensions) {
      const candidate = join(dir, `${name}${ext}`);
      if (isExecutableFile(candidate, windows)) return candidate;
    }
  }
  return undefined;
}

/** The Pulumi CLI on PATH, if any. It cannot come from npm: the engine and its plugins are not there. */
export function findPulumiCli(options: SearchOptions = {}): string | undefined {
  return findExecutable("pulumi", options);
}
