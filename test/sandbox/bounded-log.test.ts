import { describe, expect, it } from "vitest";
import { appendBounded } from "../../sandbox/bounded-log";

describe("the sandbox's logs (regression: unknown-route requests and delivery attempts grew without bound)", () => {
  it("keep the most recent entries once they pass their bound", () => {
    const log: number[] = [];
    for (let i = 0; i < 200_001; i++) appendBounded(log, i);
    expect(log.length).toBeLessThanOrEqual(200_000);
    expect(log.at(-1)).toBe(200_000);
    expect(log[0]).toBe(200_001 - log.length);
  });
});
