import type {
  EnforcementLevel,
  ReportViolation,
  ResourceValidationPolicy,
  StackValidationPolicy,
} from "@pulumi/policy";
import { z } from "zod";
import { redact } from "../context/process";
import { analyzedResource, plainProps, rememberWebhookSecrets } from "./analyzed";
import {
  ChannelConfig,
  DomainConfig,
  FilterConfig,
  parseConfig,
  policyConfigSchema,
  QuotaConfig,
} from "./config";
import {
  channelViolations,
  duplicateViolations,
  filterViolations,
  missingDependencyViolations,
  quotaViolations,
  replaceAtQuotaViolations,
  secretInPlainTextViolations,
  unregisteredHostViolations,
  type Violation,
} from "./rules";
import { readStack, readWebhook, type StackView, WEBHOOK_TYPES, type WebhookView } from "./views";

/**
 * The thin @pulumi/policy layer: turns what the analyzer hands a policy into AnalyzedResources, runs a
 * pure rule from rules.ts, and reports what it finds. Only types come from @pulumi/policy, so loading this
 * module does not need the optional peer dependency.
 */

const NoConfig = z.object({});

interface Rule<S extends z.ZodObject, T> {
  readonly name: string;
  readonly description: string;
  readonly enforcementLevel: EnforcementLevel;
  readonly config?: S;
  readonly check: (subject: T, config: z.output<S>) => Violation[];
}

function described<S extends z.ZodObject, T>(rule: Rule<S, T>) {
  return {
    name: rule.name,
    description: rule.description,
    enforcementLevel: rule.enforcementLevel,
    ...(rule.config ? { configSchema: policyConfigSchema(rule.config) } : {}),
  };
}

function run<S extends z.ZodObject, T>(
  rule: Rule<S, T>,
  config: unknown,
  subject: T,
  reportViolation: ReportViolation,
): void {
  const parsed = parseConfig(rule.name, rule.config ?? NoConfig, config) as z.output<S>;
  for (const v of rule.check(subject, parsed)) reportViolation(redact(v.message), v.urn);
}

function stackPolicy<S extends z.ZodObject = typeof NoConfig>(
  rule: Rule<S, StackView>,
): StackValidationPolicy {
  return {
    ...described(rule),
    validateStack: (args, reportViolation) => {
      const resources = args.resources.map(analyzedResource);
      resources.forEach(rememberWebhookSecrets);
      run(rule, args.getConfig(), readStack(resources), reportViolation);
    },
  };
}

function webhookPolicy<S extends z.ZodObject = typeof NoConfig>(
  rule: Rule<S, WebhookView>,
): ResourceValidationPolicy {
  return {
    ...described(rule),
    validateResource: (args, reportViolation) => {
      if (!WEBHOOK_TYPES.includes(args.type)) return;
      const resource = {
        urn: args.urn,
        type: args.type,
        name: args.name,
        props: plainProps(args.props),
        dependencies: [],
        propertyDependencies: {},
      };
      rememberWebhookSecrets(resource);
      run(rule, args.getConfig(), readWebhook(resource), reportViolation);
    },
  };
}

/**
 * The policies for this package's resources, for a policy pack of your own:
 * `new PolicyPack("my-pack", { policies: [...servicePolicies, ...mine] })`. They recognise Webhooks and
 * Domains by type token and ignore every other resource. The pack shipped in `policy-pack/` serves them
 * as they are.
 */
export const servicePolicies: (StackValidationPolicy | ResourceValidationPolicy)[] = [
  stackPolicy({
    name: "service-webhook-quota",
    description:
      "Webhooks that share credentials belong to one organization, which may have at most `quota` active webhooks (the service's limit by default). A create beyond it fails halfway through `pulumi up`.",
    enforcementLevel: "mandatory",
    config: QuotaConfig,
    check: (stack, config) => quotaViolations(stack, config.quota),
  }),
  stackPolicy({
    name: "service-webhook-replace-at-quota",
    description:
      "An organization at its webhook quota has no slot for a replacement, which Pulumi creates before it deletes the old webhook: its Webhooks should set `deleteBeforeReplace`.",
    enforcementLevel: "advisory",
    config: QuotaConfig,
    check: (stack, config) => replaceAtQuotaViolations(stack, config.quota),
  }),
  stackPolicy({
    name: "service-webhook-domain-in-stack",
    description:
      "Each Webhook's endpoint host must be a Domain declared in this stack, or a host registered outside it and listed in `externalHosts`: the service refuses endpoints on hosts that are not registered.",
    enforcementLevel: "mandatory",
    config: DomainConfig,
    check: (stack, config) => unregisteredHostViolations(stack, config.externalHosts),
  }),
  stackPolicy({
    name: "service-webhook-depends-on-domain",
    description:
      "Each Webhook must depend on the Domain of its endpoint host, so that it is created after the domain is verified and deleted before the domain is deactivated.",
    enforcementLevel: "mandatory",
    check: (stack) => missingDependencyViolations(stack),
  }),
  stackPolicy({
    name: "service-webhook-unique",
    description:
      "No two Webhooks may have the same credentials, endpoint, channel and filters (in any order or value/values form): the service would deliver every matching event to both.",
    enforcementLevel: "mandatory",
    check: (stack) => duplicateViolations(stack),
  }),
  // Analyzers get secret inputs already revealed (pulumi/pulumi-policy#241), so no policy can tell
  // whether secretKey was passed as a secret; the Webhook marks it secret in any case. What a policy can
  // see is the key's value copied into inputs that are kept in plain text.
  webhookPolicy({
    name: "service-webhook-secret-in-plain-text",
    description:
      "A Webhook's secretKey must not also appear in its endpoint, channel or filters, which are stored and shown in plain text.",
    enforcementLevel: "mandatory",
    check: (webhook) => secretInPlainTextViolations(webhook),
  }),
  webhookPolicy({
    name: "service-webhook-channel",
    description: "Webhook channels must match the configured `channelPattern` (any channel until it is set).",
    enforcementLevel: "mandatory",
    config: ChannelConfig,
    check: (webhook, config) => channelViolations(webhook, config.channelPattern),
  }),
  webhookPolicy({
    name: "service-webhook-filters",
    description:
      "Webhook filters may use only the configured optional keys and form factors (all that the service accepts until configured).",
    enforcementLevel: "mandatory",
    config: FilterConfig,
    check: (webhook, config) =>
      filterViolations(webhook, config.allowedFilterKeys, config.allowedFormFactors),
  }),
];
