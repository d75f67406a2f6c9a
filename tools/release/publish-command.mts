/**
 * The commands a publishing step runs (publish.mts), each printed before it runs, or instead of running
 * in a dry run. A secret is never an argument's text: it is named by its environment variable, printed
 * as `"$NAME"`, and read from the environment only when the command runs.
 */
import { execFileSync } from "node:child_process";

/** An argument that is a secret: the environment variable that holds it. */
export interface Secret {
  readonly env: string;
}

/** A program and its arguments. */
export interface Command {
  readonly program: string;
  readonly args: readonly (string | Secret)[];
  /** The folder it runs in: this process's unless given. */
  readonly cwd?: string;
}

/** The secret that the environment variable `env` holds. */
export function secret(env: string): Secret {
  return { env };
}

/** An argument as a POSIX shell reads it back: quoted only where the shell would split or expand it. */
function quoted(arg: string | Secret): string {
  if (typeof arg !== "string") return `"$${arg.env}"`;
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", "'\\''")}'`;
}

/** The command as one shell line, secrets as their variables. */
export function shown(command: Command): string {
  return [command.program, ...command.args].map(quoted).join(" ");
}

/** Prints one line of a step's report, on stdout, headed by the step's name. */
export function say(step: string, line: string): void {
  process.stdout.write(`${step}: ${line}\n`);
}

/**
 * Runs `command` to its end, its output passed through, once it has been printed. A secret missing from
 * the environment, or a failure, is an error naming the command.
 */
export function runCommand(step: string, command: Command, env: NodeJS.ProcessEnv = process.env): void {
  const args = command.args.map((arg) => {
    if (typeof arg === "string") return arg;
    const value = env[arg.env];
    if (!value)
      throw new Error(`${arg.env} is not set: \`${shown(command)}\` needs it; set it in the environment.`);
    return value;
  });
  say(step, `running: ${shown(command)}${command.cwd ? ` (in ${command.cwd})` : ""}`);
  try {
    execFileSync(command.program, args, { cwd: command.cwd, env, stdio: ["ignore", "inherit", "inherit"] });
  } catch (error) {
    // Not error.message: Node's names the command with its arguments, secrets included.
    const { status, signal, code } = error as { status?: number | null; signal?: string; code?: string };
    const outcome =
      status != null ? `exited ${status}` : signal ? `was stopped by ${signal}` : `could not start (${code})`;
    throw new Error(`\`${shown(command)}\` ${outcome}; what it printed is above.`);
  }
}
