/** KeyedLock: one task at a time for each key, tasks of different keys side by side. */

import { describe, expect, it } from "vitest";
import { KeyedLock } from "../../../provider/context/keyed-lock";

describe("KeyedLock", () => {
  /** A task that records when it starts and ends, and finishes when told. */
  function task(log: string[], name: string) {
    let finish!: () => void;
    const done = new Promise<void>((resolve) => {
      finish = resolve;
    });
    return {
      run: async () => {
        log.push(`${name} start`);
        await done;
        log.push(`${name} end`);
        return name;
      },
      finish,
    };
  }

  it("runs tasks of one key one after another, and of different keys side by side", async () => {
    const lock = new KeyedLock();
    const log: string[] = [];
    const [a1, a2, b] = [task(log, "a1"), task(log, "a2"), task(log, "b")];
    const results = [lock.run("a", a1.run), lock.run("a", a2.run), lock.run("b", b.run)];
    await new Promise((resolve) => setImmediate(resolve));
    expect(log).toEqual(["a1 start", "b start"]);
    a1.finish();
    await new Promise((resolve) => setImmediate(resolve));
    expect(log).toEqual(["a1 start", "b start", "a1 end", "a2 start"]);
    // Queued while a2 runs, after a1 has finished: it still waits for a2.
    const a3 = task(log, "a3");
    results.push(lock.run("a", a3.run));
    await new Promise((resolve) => setImmediate(resolve));
    expect(log).toEqual(["a1 start", "b start", "a1 end", "a2 start"]);
    a2.finish();
    b.finish();
    await new Promise((resolve) => setImmediate(resolve));
    expect(log.indexOf("a3 start")).toBeGreaterThan(log.indexOf("a2 end"));
    a3.finish();
    expect(await Promise.all(results)).toEqual(["a1", "a2", "b", "a3"]);
  });

  it("lets the next task run after one fails, and forgets a key once nothing waits on it", async () => {
    const lock = new KeyedLock();
    await expect(lock.run("k", async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(await lock.run("k", async () => "after")).toBe("after");
    expect((lock as unknown as { tails: Map<string, unknown> }).tails.size).toBe(0);
  });
});
