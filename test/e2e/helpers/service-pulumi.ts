/**
 * The package's bin `service-pulumi`, run from a packed install as a user runs it (`npx service-pulumi`):
 * through node_modules/.bin, with this process's Node first on PATH, in a project folder with the
 * project's hermetic Pulumi environment (so that the user's own `pulumi` and backend are what it uses).
 * What it prints joins `printed`, which every e2e file searches for planted secrets.
 */
import { spawn } from "node:child_process";
import { delimiter, dirname, join } from "node:path";
import type { Consumer } from "../../helpers/consumer";
import { type CommandResult, printed } from "./engine";

/** Runs `service-pulumi <args>` from `consumer`'s install, in `cwd` with `env`, optionally with stdin. */
export async function servicePulumi(
  consumer: Consumer,
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; stdin?: string },
): Promise<CommandResult> {
  const bin = join(consumer.dir, "node_modules/.bin/service-pulumi");
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
