import { describe, expect, it } from "vitest";
import { PendingCreateError } from "../../../provider/errors/lifecycle";

describe("PendingCreateError", () => {
  it("keeps a pending create's properties readable but out of print", () => {
    const error = new PendingCreateError("create pending", "pending-1", { token: "t" }, { cause: 1 });
    expect(error).toMatchObject({ id: "pending-1", reasons: ["create pending"], cause: 1 });
    expect(error.properties).toEqual({ token: "t" });
    expect(Object.keys(error)).not.toContain("properties");
    expect(JSON.stringify(error)).not.toContain("token");
  });
});
