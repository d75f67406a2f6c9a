/**
 * What a failure looks like once it leaves this package for the engine: one message, no stack trace.
 *
 * Pulumi's dynamic-provider host (`@pulumi/pulumi/cmd/dynamic-provider`) answers a failed Check, Diff, Read
 * or Delete to the engine with the error's message, and also prints `${error}: ${error.stack}` on its
 * stderr. The engine shows every line the host prints as a message of the stack: the failure a second
 * and a third time (`Name: message: Name: message`), then each frame of the stack trace (`at ...
 * provider/errors/api.ts:284`), for every resource that failed. In the dynamic-provider host this module
 * drops exactly those lines for the errors this package throws; other output passes through untouched.
 *
 * `SERVICE_DEBUG=1` in the environment of the `pulumi` command (the switch that also prints each request,
 * client/config.ts) asks for the stack trace: it is then added to the failure's one message, so that it
 * reaches the engine by either path (the engine hides the provider plugin's own stderr).
 */
import { contextKey, processContext, redact } from "../context/process";
import { SETTINGS } from "../settings/table";
import { ServiceError } from "./base";

/**
 * The environment variable that asks for debugging output (any value): the client's request lines
 * (client/config.ts `ENV.debug`) and, here, stack traces in failures.
 */
const DEBUG_VARIABLE = SETTINGS.debug.env;

/** Whether the user asked for debugging output. */
const debugging = (env: NodeJS.ProcessEnv = process.env) => Boolean(env[DEBUG_VARIABLE]);

/** How many echoes are awaited at most: the host prints each one right after the call fails. */
const MAX_AWAITED = 64;

/**
 * The echoes awaited, with how many times each: two resources that fail on one shared listing throw errors
 * that print alike, and the host prints each.
 */
const ECHOES = contextKey("host echoes to drop", () => ({ awaited: new Map<string, number>() }));

/** Marks the console.error that drops echoes, so that it is installed once per process. */
const FILTER = Symbol.for("@service/pulumi:host-echo-filter");

/** The line the dynamic-provider host prints for a failed call. */
const echoOf = (error: Error) => `${error}: ${error.stack}`;

/**
 * Installs, once in this process, a console.error that drops the dynamic-provider host's echo of each error
 * `expectHostEcho` announced. Only the dynamic-provider host should call it (the runtime contract's
 * `configure`, which only that host calls).
 */
export function dropHostEchoes(): void {
  const current = console.error as typeof console.error & { [FILTER]?: true };
  if (current[FILTER]) return;
  const filtered = function (this: unknown, ...args: unknown[]) {
    const awaited = processContext().get(ECHOES).awaited;
    const count = args.length === 1 && typeof args[0] === "string" ? awaited.get(args[0]) : undefined;
    if (count === undefined) return current.apply(this, args);
    if (count > 1) awaited.set(args[0] as string, count - 1);
    else awaited.delete(args[0] as string);
  };
  console.error = Object.assign(filtered, { [FILTER]: true as const });
}

/** Announces that the host will print `error`'s echo, which is then dropped; nothing where no filter is installed. */
export function expectHostEcho(error: unknown): void {
  if (!(error instanceof Error) || !(console.error as { [FILTER]?: true })[FILTER]) return;
  const awaited = processContext().get(ECHOES).awaited;
  const echo = echoOf(error);
  if (!awaited.has(echo) && awaited.size >= MAX_AWAITED) awaited.delete(awaited.keys().next().value!);
  awaited.set(echo, (awaited.get(echo) ?? 0) + 1);
}

/** The frames of `error`'s stack trace, without the message it starts with. */
const framesOf = (error: Error) =>
  (error.stack ?? "")
    .split("\n")
    .filter((line) => /^\s+at /.test(line))
    .join("\n");

/**
 * `error` as it should reach the engine: with its stack trace when the user asked for it; an error this
 * package did not mean to throw (a bug, or a library's) with its message redacted and a word on how to see
 * where it came from.
 */
export function asReported(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const unexpected = !(error instanceof ServiceError);
  if (unexpected) error.message = redact(error.message);
  if (debugging()) {
    const frames = framesOf(error);
    if (frames) error.message = `${error.message}\n${frames}`;
  } else if (unexpected) {
    error.message = `${error.message} (an unexpected failure inside @service/pulumi: run the command again with ${DEBUG_VARIABLE}=1 to see where it happened, and report it)`;
  }
  return error;
}
