import { describe, expect, it } from "vitest";
import { SHARED_LIMITERS, sharedLimiter } from "../../../provider/client/index";
import { ProcessContext, processContext, redact, setProcessContext } from "../../../provider/context/process";

import { useScriptedServers } from "../../helpers/scripted-server";

/** The per-process context: one per process, whichever copy of the package asks. */

useScriptedServers();

describe("the process context", () => {
  it("is one per process, whichever copy of the package asks for it", () => {
    const builtCopy =
      require("../../../dist/provider/context/process.js") as typeof import("../../../provider/context/process");
    expect(builtCopy.processContext()).toBe(processContext());
  });

  it("holds one of each state when the runtime bundle and the package are both loaded (regression)", () => {
    setProcessContext(new ProcessContext());
    const bundle = require("@service/pulumi/runtime") as typeof import("../../../provider/runtime-contract");
    expect(require.resolve("@service/pulumi/runtime")).toMatch(/dist[\\/]runtime[\\/]index\.js$/);
    bundle.configure({ get: (key) => ({ "service:token": "acme-bundle-token-0123" })[key] });
    // The package's own copy (from source here) hides the secret the bundle's `configure` remembered.
    expect(redact("token acme-bundle-token-0123")).not.toContain("acme-bundle-token-0123");
  });

  it("holds the shared rate limiters: one per credential in a process, whichever copy asks, none carried over", () => {
    setProcessContext(new ProcessContext());
    const key = { token: "token-0123456789", baseUrl: "http://127.0.0.1:8787", perSecond: 3 };
    const limiter = sharedLimiter(key);
    expect(SHARED_LIMITERS.limiterFor(key)).toBe(limiter);
    const builtCopy =
      require("../../../dist/provider/client/index.js") as typeof import("../../../provider/client/index");
    expect(builtCopy.sharedLimiter(key)).toBe(limiter);
    setProcessContext(new ProcessContext());
    expect(sharedLimiter(key)).not.toBe(limiter);
  });
});
