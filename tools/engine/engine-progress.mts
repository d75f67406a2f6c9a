/**
 * What `npm run engine` prints while it works: durations as a person reads them, and a line at a fixed
 * interval for as long as a build (or a wait for another build) goes on, so that a five-minute cold build
 * never looks hung.
 */

/** The interval of the progress lines: the issue asks for one at least every 15 s. */
export const PROGRESS_EVERY_MS = 10_000;

/**
 * The interval to use: `SERVICE_ENGINE_PROGRESS_MS` when it is a positive integer (the tests shorten it
 * so that a fake build of a second or two shows several lines), else PROGRESS_EVERY_MS. Never longer
 * than the default: the variable can make the lines more frequent, never rarer.
 */
export function progressInterval(env: NodeJS.ProcessEnv = process.env): number {
  const asked = Number(env.SERVICE_ENGINE_PROGRESS_MS);
  return Number.isInteger(asked) && asked > 0 ? Math.min(asked, PROGRESS_EVERY_MS) : PROGRESS_EVERY_MS;
}

/** `4 s`, `1 min 05 s`, `12 min 00 s`: whole seconds, as a progress line shows them. */
export function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  return `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, "0")} s`;
}

/**
 * Calls `report` with the time elapsed since the start, every `everyMs`, until the returned function is
 * called. The timer does not keep the process alive by itself.
 */
export function everyInterval(report: (elapsedMs: number) => void, everyMs: number): () => void {
  const started = performance.now();
  const timer = setInterval(() => report(performance.now() - started), everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
