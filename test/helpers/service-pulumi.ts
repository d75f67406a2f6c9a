/**
 * The package's bin `service-pulumi`, run from a packed install as a user runs it (`npx service-pulumi`):
 * through node_modules/.bin, with this process's Node first on PATH, in a project folder with the
 * project's hermetic Pulumi environment (so that the user's own `pulumi` and backend are what it uses).
 * What it prints joins `printed`, which every e2e file searches for planted secrets.
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { createConsumer } from "./consumer";
import { type CommandResult, printed } from "./engine";

const root = join(__dirname, "../..");
const PREFIX = "service-pulumi-e2e-packed-";

/** A hash of what `npm pack` ships: package.json and every file under the folders it lists. */
function shippedHash(): string {
  const hash = createHash("sha256");
  const manifest = readFileSync(join(root, "package.json"));
  hash.update(manifest);
  const folders = (JSON.parse(manifest.toString()).files as string[]).filter((f) => !f.startsWith("!"));
  for (const folder of folders) {
    const path = join(root, folder);
    if (!existsSync(path)) continue;
    const files = statSync(path).isDirectory()
      ? (readdirSync(path, { recursive: true }) as string[]).sort().map((f) => join(path, f))
      : [path];
    for (const file of files) if (statSync(file).isFile()) hash.update(file).update(readFileSync(file));
  }
  return hash.digest("hex").slice(0, 16);
}

/**
 * The folder of a packed install of the current build, made once and shared by every e2e file that runs
 * the bin (about 7 s each otherwise). It lives under the system temp folder, keyed by what it ships, so a
 * new build makes a new one and the stale ones are removed then.
 */
export function packedInstall(): string {
  const dir = join(tmpdir(), `${PREFIX}${shippedHash()}`);
  if (existsSync(join(dir, "node_modules/.bin/service-pulumi"))) return dir;
  for (const stale of readdirSync(tmpdir()).filter((name) => name.startsWith(PREFIX))) {
    rmSync(join(tmpdir(), stale), { recursive: true, force: true });
  }
  renameSync(createConsumer(root).dir, dir);
  return dir;
}

/** Where and how a run of `service-pulumi` runs. */
interface RunOptions {
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly stdin?: string;
}

/** Runs `service-pulumi <args>` from the packed install in `installed`, in `cwd` with `env`. */
export function servicePulumi(
  installed: string,
  args: readonly string[],
  options: RunOptions,
): Promise<CommandResult> {
  return runProgram(join(installed, "node_modules/.bin/service-pulumi"), args, options);
}

/**
 * Runs `service-pulumi <args>` from this repository's build (dist/, which the tests' setup builds), for
 * the files that need no packed install: the same program, without the 7 s of packing it.
 */
export function builtServicePulumi(args: readonly string[], options: RunOptions): Promise<CommandResult> {
  return runProgram(process.execPath, [join(root, "dist/provider/cli/main.js"), ...args], options);
}

async function runProgram(bin: string, args: readonly string[], options: RunOptions): Promise<CommandResult> {
  const env = { ...options.env, PATH: [dirname(process.execPath), options.env.PATH].join(delimiter) };
  const child = spawn(bin, [...args], { cwd: options.cwd, env, stdio: ["pipe", "pipe", "pipe"] });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
  child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
  child.stdin.end(options.stdin ?? "");
  const status = await new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", resolve);
  });
  const stdout = Buffer.concat(out).toString("utf8");
  const stderr = Buffer.concat(err).toString("utf8");
  printed.push(stdout, stderr);
  return { status, stdout, stderr, output: stdout + stderr };
}
