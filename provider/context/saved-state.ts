/**
 * Whether this provider process serves a running program or only a stack's saved state, as far as the
 * calls it received tell.
 *
 * `pulumi up` and `pulumi preview` run the program: the engine checks every resource it registers (Check,
 * then Diff, Create or Update), and configures the provider from the stack's current configuration.
 * `pulumi destroy` and `pulumi refresh` without `--run-program` run no program: the engine configures the
 * provider from the configuration the last update saved in the stack, and calls only Delete or Read. With
 * `--run-program` they still call only Delete or Read (the resources are not checked), but configure from
 * the current configuration. So a process that has received nothing but Read and Delete may be using saved
 * credentials, and advice about a refused token must say how to replace them: fix the configuration, then
 * rerun with `--run-program`. That advice also holds when `--run-program` was given (the current
 * configuration is the one to fix). A process that has checked, diffed, created, updated or constructed a
 * resource is serving a program, and its plain advice holds.
 *
 * One gap: an `up` whose program registers none of this package's resources, but deletes some left in
 * state, also calls only Delete; the engine then configures the provider from state too, as for a destroy.
 */
import { contextKey, processContext } from "./process";

const ORIGIN = contextKey("calls from a program", () => ({ fromProgram: false }));

/** Records that this process received a call only a running program causes (Check, Diff, Create, Update, Construct). */
export function noteProgramCall(): void {
  processContext().get(ORIGIN).fromProgram = true;
}

/** True while this process has received only Read and Delete calls: it may run on credentials saved in state. */
export function servingSavedState(): boolean {
  return !processContext().get(ORIGIN).fromProgram;
}
