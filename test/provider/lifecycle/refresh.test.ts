/** What a refresh answers the engine. */
import { describe, expect, it } from "vitest";
import { refreshAnswer } from "../../../provider/lifecycle/refresh";

describe("a refresh's answer", () => {
  const stored = { __provider: "code", b: { y: 2, x: 1 }, a: "1", gone: null };

  it("is the stored state itself, with no inputs, when the service showed nothing new in any member order", () => {
    const inputsOf = () => {
      throw new Error("no inputs are needed when nothing changed");
    };
    expect(refreshAnswer("id-1", stored, { a: "1", b: { x: 1, y: 2 } }, inputsOf)).toEqual({
      id: "id-1",
      props: stored,
    });
  });

  it("is the refreshed state and the inputs it implies when the service showed something new", () => {
    const refreshed = { a: "2", b: { x: 1, y: 2 } };
    expect(refreshAnswer("id-1", stored, refreshed, () => ({ a: "2" }))).toEqual({
      id: "id-1",
      props: refreshed,
      inputs: { a: "2" },
    });
  });
});
