/**
 * The Webhook resource, declared once: registry.ts lists it, and the runtime contract serves its
 * lifecycle under the key `webhook`.
 */
import { lazyLifecycle } from "../lifecycle/lazy-load";
import { declareResource } from "../resource-kit/declaration";

/**
 * The Webhook's lifecycle: checks and diffs load resource.ts, the rest loads lifecycle.ts (and the API
 * client).
 */
export const webhookLifecycle = lazyLifecycle(
  () => import("./resource.js"),
  () => import("./lifecycle.js"),
);

/** The Webhook, as the registry lists it. */
export const webhook = declareResource({
  key: "webhook",
  type: "Webhook",
  policy: "webhook",
  // The secret key is stored only as a salted hash, itself secret, as are the credentials' hash and the
  // resource's own credentials.
  secrets: {
    inputs: ["secretKey", "connection"],
    outputs: ["secretKeyHash", "connection", "credentialsHash"],
  },
  lifecycle: webhookLifecycle,
});
