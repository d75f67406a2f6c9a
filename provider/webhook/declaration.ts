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
  // What resource.ts's fields say is secret (WEBHOOK_SECRETS), spelled out because the registry loads no
  // zod before a first check; test/provider/webhook/declaration.test.ts holds the two together.
  secrets: {
    inputs: ["secretKey", "connection"],
    outputs: ["secretKeyHash", "connection", "credentialsHash"],
  },
  lifecycle: webhookLifecycle,
});
