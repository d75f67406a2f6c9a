/**
 * What a failure looks like once it leaves this package for the engine: one message, no stack trace.
 *
 * The engine shows the failure's message on its resource. Pulumi's dynamic-provider host
 * (`@pulumi/pulumi/cmd/dynamic-provider`) also prints `${error}: ${error.stack}` on its stderr for a failed
 * Check, Diff, Read or Delete, and the engine shows each line it prints on the stack: with a stack trace,
 * that was the failure a second and a third time and then every frame (`at ... provider/errors/api.ts:284`).
 * A failure leaves here with an empty `stack`, so that printout is the failure once, on one line per line
 * of its message. It cannot be left out without replacing the host's `console.error`, which the host shares
 * with every other dynamic provider of the program: the host writes the separator (`: `) whatever the error
 * holds, and the engine drops only blank lines.
 *
 * `SERVICE_DEBUG=1` in the environment of the `pulumi` command (the switch that also prints each request,
 * client/config.ts) asks for the stack trace: it is then added to the failure's one message, so that it
 * reaches the engine by either path (the engine hides the provider plugin's own stderr).
 */
import { redact } from "../context/process";
import { SETTINGS } from "../settings/table";
import type { Settings } from "../settings/value";
import { ServiceError } from "./base";

/**
 * Whether the user asked for debugging output (SERVICE_DEBUG, any value): the client's request lines
 * (client/config.ts `ENV.debug`) and, here, stack traces in failures.
 */
const debugging = (settings: Settings) => settings.env.debug !== undefined;

/** The frames of `error`'s stack trace, without the message it starts with. */
const framesOf = (error: Error) =>
  (error.stack ?? "")
    .split("\n")
    .filter((line) => /^\s+at /.test(line))
    .join("\n");

/**
 * `error` with an empty stack trace, so that what the dynamic-provider host prints of it is its message
 * alone (see above). Anything else than an Error is returned as it is.
 */
export function withoutTrace(error: unknown): unknown {
  if (error instanceof Error) error.stack = "";
  return error;
}

/**
 * `error` as it should reach the engine: with its stack trace in its message when the user asked for it,
 * and in its `stack` never; an error this package did not mean to throw (a bug, or a library's) with its
 * message redacted and a word on how to see where it came from. `settings` say whether the user asked
 * for debugging output.
 */
export function asReported(error: unknown, settings: Settings): unknown {
  if (!(error instanceof Error)) return error;
  const unexpected = !(error instanceof ServiceError);
  if (unexpected) error.message = redact(error.message);
  if (debugging(settings)) {
    const frames = framesOf(error);
    if (frames) error.message = `${error.message}\n${frames}`;
  } else if (unexpected) {
    error.message = `${error.message} (an unexpected failure inside @service/pulumi: run the command again with ${SETTINGS.debug.env}=1 to see where it happened, and report it)`;
  }
  return withoutTrace(error);
}
