import type { Clock } from "../../provider/context/clock";

/** A client clock whose sleeps return at once and move time forward, recording each wait. */
export function steppingClock(start = 1_000_000): Clock & { slept: number[] } {
  let now = start;
  const slept: number[] = [];
  return {
    slept,
    now: () => now,
    sleep: async (ms) => {
      slept.push(ms);
      now += ms;
    },
  };
}
