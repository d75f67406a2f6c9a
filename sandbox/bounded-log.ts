/** Entries a long-running sandbox keeps in each of its logs (requests, delivery attempts). */
const KEEP = 100_000;

/**
 * Appends to a log that keeps the most recent entries only, so that a sandbox left running for days does
 * not grow without bound. Trimming happens in batches, so an append stays cheap.
 */
export function appendBounded<T>(log: T[], entry: T): void {
  log.push(entry);
  if (log.length > 2 * KEEP) log.splice(0, log.length - KEEP);
}
