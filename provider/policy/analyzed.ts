import type { PolicyResource } from "@pulumi/policy";
import { rememberSecret } from "../context/process";
import { type AnalyzedResource, WEBHOOK_TYPES } from "./views";

/**
 * What the analyzer hands a policy, turned into the plain AnalyzedResource the pure rules read. Kept out
 * of policies.ts so that the published declarations of `servicePolicies` reach none of the rules' types.
 */

/**
 * @pulumi/policy hands out props behind a proxy whose getter throws on a value not known yet, which would
 * turn the whole policy into a "can't run during preview" note. The property descriptor bypasses that
 * getter and gives the value as the engine sent it, unknown sentinel included, so only the rules that need
 * that value skip it.
 */
export function plainProps(props: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.keys(props).map((k) => [k, Object.getOwnPropertyDescriptor(props, k)?.value]),
  );
}

/** Messages quote endpoints, channels and filters, so a secret copied into one is masked like everywhere else. */
export function rememberWebhookSecrets(resource: AnalyzedResource): void {
  if (!WEBHOOK_TYPES.includes(resource.type)) return;
  const { secretKey, connection } = resource.props;
  if (typeof secretKey === "string") rememberSecret(secretKey);
  if (typeof connection === "object" && connection !== null) {
    const { token } = connection as Record<string, unknown>;
    if (typeof token === "string") rememberSecret(token);
  }
}

/** One resource of AnalyzeStack, as the pure rules read it. */
export function analyzedResource(resource: PolicyResource): AnalyzedResource {
  return {
    urn: resource.urn,
    type: resource.type,
    name: resource.name,
    props: plainProps(resource.props),
    parent: resource.parent?.urn ?? resource.opts.parent,
    dependencies: resource.dependencies.map((d) => d.urn),
    propertyDependencies: Object.fromEntries(
      Object.entries(resource.propertyDependencies).map(([k, deps]) => [k, deps.map((d) => d.urn)]),
    ),
    deleteBeforeReplace: resource.opts.deleteBeforeReplace,
  };
}
