/**
 * How the commands end. A finding (an orphan, a conflict, a drift) is not a failure: the command reports
 * it and exits 1. A failure is what kept the command from answering at all: bad usage, an unreadable file,
 * missing or wrong credentials, an API that kept refusing. It is one line that names the file or object,
 * the cause and the next step, and exit code 2.
 */

/** The exit codes, which a scheduled CI job reads. */
export const EXIT = {
  /** Nothing to report. */
  clean: 0,
  /** Something is orphaned, conflicting or drifted. */
  findings: 1,
  /** Usage, input, credential or API errors: the command could not answer. */
  failure: 2,
} as const;

/** A failure the command reports in one line, then exits 2. */
export class CliFailure extends Error {
  override readonly name = "CliFailure";
}
