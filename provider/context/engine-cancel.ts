/**
 * The engine's cancel (Ctrl-C, or a SIGTERM to `pulumi`): the engine then waits for the steps in flight
 * before it ends, so a step that waits on something outside the service (a Domain's verification file,
 * for up to its `timeout`) must stop waiting at once rather than hold the whole command.
 */
import { contextKey, processContext } from "./process";

const CANCEL = contextKey("the engine's cancel", () => {
  let resolve!: () => void;
  const cancelled = new Promise<void>((done) => {
    resolve = done;
  });
  return { requested: false, gone: false, cancelled, resolve };
});

/** Records the engine's cancel in this process, waking every wait that races `whenCancelled`. */
export function requestCancel(): void {
  const cancel = processContext().get(CANCEL);
  cancel.requested = true;
  cancel.resolve();
}

/**
 * Records that the engine is gone (killed, so it could not stop this process): no answer reaches it any
 * more, so the outcome of a call in flight is never recorded in state. It cancels as the engine's cancel
 * does, and `engineIsGone` then keeps what would let a later run find that outcome (a create's attempt note).
 */
export function engineGone(): void {
  processContext().get(CANCEL).gone = true;
  requestCancel();
}

/** Whether the engine this process answers is gone: see `engineGone`. */
export function engineIsGone(): boolean {
  return processContext().get(CANCEL).gone;
}

/** Whether the engine has asked this process to cancel. */
export function cancelRequested(): boolean {
  return processContext().get(CANCEL).requested;
}

/** Resolves when the engine asks this process to cancel; one promise per process, to race against a sleep. */
export function whenCancelled(): Promise<void> {
  return processContext().get(CANCEL).cancelled;
}
