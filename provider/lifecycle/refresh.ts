import { sameValue } from "./input-comparison";
import type { ResourceProps } from "./methods";

/** What a lifecycle's `read` answers for an object the refresh found. */
export interface Refreshed {
  /** The object's id. */
  readonly id: string;
  /** The state to keep. */
  readonly props: ResourceProps;
  /** The inputs to keep; absent to keep the stored ones. */
  readonly inputs?: ResourceProps;
}

/**
 * The answer of a refresh that found the object. When the service showed nothing new, it is the stored
 * state itself, as the engine passed it, and no inputs, which tells the engine to keep the stored ones:
 * a refresh with nothing changed remotely rewrites no state. Otherwise, the refreshed state and the
 * inputs it implies (`inputsOf`).
 */
export function refreshAnswer(
  id: string,
  stored: ResourceProps,
  refreshed: object,
  inputsOf: () => ResourceProps,
): Refreshed {
  // The engine keeps `__provider`, the dynamic provider's code, in state; no lifecycle returns it.
  const { __provider: _provider, ...storedState } = stored;
  if (sameValue(storedState, refreshed)) return { id, props: stored };
  return { id, props: refreshed as ResourceProps, inputs: inputsOf() };
}
