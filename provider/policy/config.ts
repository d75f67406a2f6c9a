import type { PolicyConfigSchema } from "@pulumi/policy";
import { z } from "zod";
import { Hostname } from "../../contract/domains/requests";
import { inEnglish } from "../../contract/issues";
import { MAX_ACTIVE_WEBHOOKS } from "../../contract/limits";
import { formatPath } from "../../contract/path";
import { FORM_FACTORS } from "../../contract/webhooks/requests";
import { OPTIONAL_FILTER_KEYS } from "./rules";

/**
 * The tunable settings of each policy, as zod schemas: they parse what `args.getConfig()` returns (with
 * the defaults applied here, since only the engine applies schema defaults and tests talk to the pack
 * without it), and the JSON schema the pack advertises in GetAnalyzerInfo is generated from them.
 */

/** The quota and replace-at-quota policies. */
export const QuotaConfig = z.object({
  quota: z
    .int()
    .min(1)
    .default(MAX_ACTIVE_WEBHOOKS)
    .describe(
      "Active webhooks one organization may have. Lower it to keep slots free for webhooks managed outside this stack.",
    ),
});

/** The domain-in-stack policy. */
export const DomainConfig = z.object({
  externalHosts: z
    .array(Hostname)
    .default([])
    .describe("Hostnames registered to the organization outside this stack, such as hooks.example.com."),
});

function isRegExp(pattern: string): boolean {
  try {
    new RegExp(pattern, "u");
    return true;
  } catch {
    return false;
  }
}

/** The channel policy. */
export const ChannelConfig = z.object({
  channelPattern: z
    .string()
    .refine(isRegExp, "must be a valid regular expression")
    .optional()
    .describe(
      "A regular expression every channel must match as a whole, such as (orders|auth)-(prod|staging). Unset: any channel.",
    ),
});

/** The filter policy. */
export const FilterConfig = z.object({
  allowedFilterKeys: z
    .array(z.enum(OPTIONAL_FILTER_KEYS))
    .default([...OPTIONAL_FILTER_KEYS])
    .describe("Optional filter keys Webhooks may use (activity.name is always allowed)."),
  allowedFormFactors: z
    .array(z.enum(FORM_FACTORS))
    .default([...FORM_FACTORS])
    .describe("Form factors an activity.form_factor filter may name."),
});

/** The JSON schema of a config object, in the shape `Policy.configSchema` takes. */
export function policyConfigSchema(schema: z.ZodObject): PolicyConfigSchema {
  const json = z.toJSONSchema(schema, { target: "draft-7", io: "input" });
  return {
    properties: json.properties as PolicyConfigSchema["properties"],
    ...(json.required ? { required: json.required } : {}),
  };
}

/** Parses a policy's config; a bad value stops the run with a message naming the policy and the setting. */
export function parseConfig<S extends z.ZodObject>(
  policyName: string,
  schema: S,
  config: unknown,
): z.output<S> {
  const parsed = schema.safeParse(config, { error: inEnglish });
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((i) => `${formatPath(i.path) || "(config)"} ${i.message}`);
  throw new Error(
    `Invalid config for policy ${policyName}: ${problems.join("; ")}. Fix it in the policy pack config (pulumi preview --policy-pack-config).`,
  );
}
