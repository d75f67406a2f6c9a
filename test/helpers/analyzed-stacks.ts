/** Stacks as the policies' pure rules read them: engine resources turned into the views the rules take. */
import { analyzedResource } from "../../provider/policy/analyzed";
import { readStack, readWebhook } from "../../provider/policy/views";
import { domain, type EngineResource, policyResources, webhook } from "./analyzer";

/** The stack view of `resources`, read as the analyzer hands them over. */
export const stackOf = (resources: readonly EngineResource[]) =>
  readStack(policyResources(resources).map(analyzedResource));
/** The webhook view of one resource, read as the analyzer hands it over. */
export const webhookOf = (resource: EngineResource) =>
  readWebhook(analyzedResource(policyResources([resource])[0]!));
/** A Domain named hooks, and the dependency on it that a Webhook declares with `dependsOn: [domain]`. */
export const hooks = domain("hooks");
export const onHooks = { dependencies: hooks.children };
/** `n` Webhooks that depend on `hooks`, named `<prefix>-1` and on, each on a channel of its own. */
export const many = (n: number, args: Parameters<typeof webhook>[1] = {}, prefix = "hook") =>
  Array.from({ length: n }, (_, i) =>
    webhook(`${prefix}-${i + 1}`, { ...onHooks, channel: `${prefix}-${i}`, ...args }),
  );
