/**
 * What review says a Webhook delivers (provider/cli/deliveries.ts), for a channel or filters the program
 * made secret: that they are secret, never their defaults.
 */
import { describe, expect, it } from "vitest";
import { HOOK, hookResource, stackResource, useCliFolder } from "../../helpers/cli-inputs";
import { runCli } from "../../helpers/cli-io";

const { dir, writeJson } = useCliFolder("cli-deliveries-");

describe("a secret channel or secret filters (regression)", () => {
  it("says a secret channel or secret filters are secret, never their defaults, and never calls them unchanged", async () => {
    const secretly = (name: string, filters: unknown) => ({
      ...hookResource("dev", name, `u-${name}`, { channel: "[secret]", filters }),
      inputs: { endpoint: HOOK, channel: "[secret]", filters },
    });
    const before = secretly("hush", "[secret]");
    const after = { ...secretly("hush", "[secret]"), id: undefined };
    const file = writeJson("secret-channel.json", {
      steps: [
        { op: "same", urn: stackResource("dev").urn },
        {
          op: "replace",
          urn: before.urn,
          oldState: { ...before, delete: true },
          newState: after,
          replaceReasons: ["filters"],
        },
      ],
    });
    const run = await runCli(["review", file], { cwd: dir });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      "stops receiving the records its secret filters select on a secret channel.",
    );
    expect(run.stdout).not.toContain("keeps receiving");
    expect(run.stdout).not.toContain("`default`");
  });
});
