/**
 * The VerificationFile resource (what directoryPublisher creates), declared once: registry.ts lists it,
 * and the runtime contract serves its lifecycle under the key `verificationFile`.
 */
import { lazyLifecycle } from "../lifecycle/lazy-load";
import { declareResource } from "../resource-kit/declaration";

/** VerificationFile's lifecycle: one small module answers all six methods. */
export const verificationFileLifecycle = lazyLifecycle(
  () => import("./verification-file.js"),
  () => import("./verification-file.js"),
);

/** VerificationFile, as the registry lists it. */
export const verificationFile = declareResource({
  key: "verificationFile",
  type: "VerificationFile",
  // The file's content is the register token; state keeps only its salted hash.
  secrets: { inputs: ["content"], outputs: ["contentHash"] },
  lifecycle: verificationFileLifecycle,
});
