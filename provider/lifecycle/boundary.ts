/**
 * The edge between a declared resource's lifecycle and the engine. The dynamic provider and the plugin both call through it (the
 * dynamic-provider host through the runtime contract, the provider plugin through CustomResource), so each
 * failure leaves this package the same way: one message, advice that fits the command that ran, no stack
 * trace unless asked for (errors/reported.ts).
 */
import { noteProgramCall, servingSavedState } from "../context/saved-state";
import { type SavedStateCommand, savedStateAdvice } from "../errors/advice";
import { AuthenticationError, readvised, WebhooksNotEnabledError } from "../errors/api";
import { asReported } from "../errors/reported";
import type { Settings } from "../settings/value";
import type { ResourceLifecycle, ResourceProps } from "./methods";

/** The command that reads or deletes without a program: `refresh` for a Read, `destroy` for a Delete. */
const COMMAND_OF: Readonly<Record<"read" | "remove", SavedStateCommand>> = {
  read: "pulumi refresh",
  remove: "pulumi destroy",
};

/** Whether `props` are stored state, not the empty properties of `pulumi import` reading by id. */
const isStored = (props: ResourceProps) => Object.keys(props).some((key) => key !== "__provider");

/**
 * Where the token of a resource's client came from: its own `connection`, or the stack's configuration as
 * the provider's `settings` hold it.
 */
function tokenSource(props: ResourceProps, settings: Settings): "connection" | "config" | undefined {
  const connection = props.connection as { token?: unknown } | undefined;
  if (typeof connection?.token === "string") return "connection";
  return settings.stack.token === undefined ? undefined : "config";
}

/**
 * A refused token, on a Read or Delete of a process that serves saved state (context/saved-state.ts), advised for
 * that case: fixing the config alone changes nothing for `destroy` and `refresh`, which keep using what the
 * last update saved until they run with `--run-program`.
 */
function forSavedState(
  error: unknown,
  method: "read" | "remove",
  props: ResourceProps,
  settings: Settings,
): unknown {
  if (!(error instanceof AuthenticationError || error instanceof WebhooksNotEnabledError)) return error;
  if (!servingSavedState() || !isStored(props)) return error;
  const source = tokenSource(props, settings);
  return source === undefined ? error : readvised(error, savedStateAdvice(COMMAND_OF[method], source));
}

/**
 * Runs one lifecycle call and hands its failure on as reported under the provider's `settings`, advised by
 * `advise` first if given.
 */
async function reported<T>(
  settings: Settings,
  call: () => Promise<T>,
  advise?: (error: unknown) => unknown,
): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw asReported(advise ? advise(error) : error, settings);
  }
}

/** Calls that only a running program causes: they say this process is not serving saved state. */
function fromProgram<T>(settings: Settings, call: () => Promise<T>): Promise<T> {
  noteProgramCall();
  return reported(settings, call);
}

/** `lifecycle` with every call going through this edge, under the settings each call is handed. */
export function atEngineEdge(lifecycle: ResourceLifecycle): ResourceLifecycle {
  return {
    check: (settings, olds, news, context) =>
      fromProgram(settings, () => lifecycle.check(settings, olds, news, context)),
    diff: (settings, id, olds, news) => fromProgram(settings, () => lifecycle.diff(settings, id, olds, news)),
    create: (settings, props) => fromProgram(settings, () => lifecycle.create(settings, props)),
    update: (settings, id, olds, news) =>
      fromProgram(settings, () => lifecycle.update(settings, id, olds, news)),
    read: (settings, id, props) =>
      reported(
        settings,
        () => lifecycle.read(settings, id, props),
        (error) => forSavedState(error, "read", props, settings),
      ),
    remove: (settings, id, props) =>
      reported(
        settings,
        () => lifecycle.remove(settings, id, props),
        (error) => forSavedState(error, "remove", props, settings),
      ),
  };
}
