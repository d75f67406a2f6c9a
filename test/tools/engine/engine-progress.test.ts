import { describe, expect, it, vi } from "vitest";
import {
  everyInterval,
  formatDuration,
  PROGRESS_EVERY_MS,
  progressInterval,
} from "../../../tools/engine/engine-progress.mts";

describe("the progress lines of npm run engine", () => {
  it("come at least every 15 s by default, and the environment can only make them more frequent", () => {
    expect(PROGRESS_EVERY_MS).toBeLessThanOrEqual(15_000);
    expect(progressInterval({})).toBe(PROGRESS_EVERY_MS);
    expect(progressInterval({ SERVICE_ENGINE_PROGRESS_MS: "250" })).toBe(250);
    expect(progressInterval({ SERVICE_ENGINE_PROGRESS_MS: "600000" })).toBe(PROGRESS_EVERY_MS);
    expect(progressInterval({ SERVICE_ENGINE_PROGRESS_MS: "soon" })).toBe(PROGRESS_EVERY_MS);
  });

  it("report through a five-minute build with no gap over 15 s", () => {
    vi.useFakeTimers();
    try {
      const at: number[] = [];
      const stop = everyInterval((elapsed) => at.push(elapsed), progressInterval({}));
      vi.advanceTimersByTime(5 * 60_000);
      stop();
      vi.advanceTimersByTime(60_000);
      expect(at.length).toBeGreaterThanOrEqual(20);
      const gaps = at.map((t, i) => t - (at[i - 1] ?? 0));
      expect(Math.max(...gaps)).toBeLessThanOrEqual(15_000);
      expect(at.at(-1)).toBeLessThanOrEqual(5 * 60_000);
    } finally {
      vi.useRealTimers();
    }
  });

  it("show durations as a person reads them", () => {
    expect([0, 4_400, 59_600, 65_000, 720_000].map(formatDuration)).toEqual([
      "0 s",
      "4 s",
      "1 min 00 s",
      "1 min 05 s",
      "12 min 00 s",
    ]);
  });
});
