/**
 * Registering a resource, Pulumi's Node.js SDK makes four promises for each of its properties (inputs and
 * outputs alike) and more for the registration itself, and records a stack trace on each (its
 * `debuggablePromise`). Those traces serve one purpose: with PULUMI_DEBUG_PROMISE_LEAKS set, a program
 * that leaves a promise pending is told where it was made. But the SDK reads each trace as it records
 * it, and every program runs under the formatter that `pulumi` installs (source-map-support), which
 * copies and maps every frame. For a Webhook that is about 40 traces, most of its construction: 6.6 ms
 * each with them, 1.4 ms without, and 4.4 ms for a hand-rolled dynamic resource (`npm run bench:program`).
 *
 * While this package's resources are constructed, the traces of the promises made meanwhile (those the
 * SDK makes once the registration's inputs have resolved come later, and are mapped) are formatted as V8
 * formats a trace without source maps. Every other trace goes to the formatter as before: the resource's
 * source position (which the SDK reads from a trace of its own), errors, and whatever a transformation
 * runs. With PULUMI_DEBUG_PROMISE_LEAKS set, nothing changes.
 */

/** The SDK function whose traces are formatted plainly: the first frame of each of them. */
const PROMISE_TRACER = "debuggablePromise";

/** How many constructions are under way in this copy of the package (a Domain makes its steps inside). */
let depth = 0;

/**
 * Formats the SDK's promise traces plainly until the function it returns is called, which must happen
 * before the constructor that called this returns (in a `finally`): the formatter is the process's.
 */
export function plainPromiseTraces(): () => void {
  const format = Error.prepareStackTrace;
  // Node has a formatter of its own (which maps under --enable-source-maps), but a program may have
  // removed it, and V8 then formats every trace plainly anyway.
  if (depth > 0 || typeof format !== "function" || process.env.PULUMI_DEBUG_PROMISE_LEAKS) return () => {};
  const plain: typeof format = (error, sites) =>
    sites[0]?.getFunctionName() === PROMISE_TRACER
      ? `${error}\n    at ${sites.join("\n    at ")}`
      : format.call(Error, error, sites);
  depth++;
  Error.prepareStackTrace = plain;
  return () => {
    depth--;
    // What ran meanwhile (a Domain's publisher loading its cloud SDK, a transformation) may have put a
    // formatter of its own in place: it stays.
    if (Error.prepareStackTrace === plain) Error.prepareStackTrace = format;
  };
}
