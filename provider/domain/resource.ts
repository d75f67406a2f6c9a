import { z } from "zod";
import { Hostname } from "../../contract/domains/requests";
import { contextKey, processContext, redact, rememberSecret } from "../context/process";
import { type CheckFailure, checkFailure, checkInputs } from "../lifecycle/check";
import { changedInputs, exact, fallbacksOf, recordedUnlessGiven } from "../lifecycle/input-comparison";
import type { CheckContext, ResourceProps } from "../lifecycle/methods";
import { containsUnknown } from "../lifecycle/unknowns";
import { commonFields, field, fieldAdvice, fieldsWhere, inputKinds, secretsOf } from "../resource-kit/fields";
import type { Settings } from "../settings/value";
import { alreadyRegisteredNotice } from "./messages";

/** Where a verification's members other than domainName come from: the registration's outputs. */
const fromRegistration = (key: string) =>
  `pass the DomainRegistration's ${key} output, or use the Domain component, which does`;

/** A DomainRegistration's inputs: a new hostname needs a new registration; credentials change in place. */
export const RegistrationInputs = z.object({
  domainName: field(Hostname, {
    replaces: true,
    quoted: true,
    compare: exact,
    advice: "give the bare hostname your receiver is served at, such as hooks.example.com",
  }),
  ...commonFields("input"),
});
export type RegistrationInputs = z.output<typeof RegistrationInputs>;

/** A started registration. The register token is a secret output. */
export const RegistrationOutputs = z.object({
  domainName: z.string(),
  url: z.string(),
  verifier: z.string(),
  /** The object key to publish: the path of `url` without its leading slash. */
  key: z.string(),
  registerToken: field(z.string(), { secret: true }),
  expiresAt: z.string(),
  ...commonFields("state"),
});
export type RegistrationOutputs = z.output<typeof RegistrationOutputs>;

const DEFAULT_TIMEOUT_SECONDS = 600;

/**
 * A DomainVerification's inputs: one left out keeps its recorded value. Another hostname, verifier or
 * adopt mode is another verification; `timeout` and credentials change in place.
 */
export const VerificationInputs = z.object({
  domainName: field(Hostname, {
    replaces: true,
    quoted: true,
    compare: recordedUnlessGiven,
    advice: "give the bare hostname your receiver is served at, such as hooks.example.com",
  }),
  /** Share an already registered domain: no registration, no file, no finish call, and no deactivation on delete. */
  adopt: field(z.boolean().default(false), {
    replaces: true,
    quoted: true,
    compare: recordedUnlessGiven,
    advice: "give true to take over a domain the organization already registered, or leave adopt out",
  }),
  verifier: field(z.string().min(1).optional(), {
    replaces: true,
    quoted: true,
    compare: recordedUnlessGiven,
    advice: fromRegistration("verifier"),
  }),
  url: field(
    z.url({ protocol: /^https$/, error: "must be the https URL start_registration returned" }).optional(),
    {
      quoted: true,
      advice: fromRegistration("url"),
    },
  ),
  registerToken: field(z.string().min(1).optional(), {
    secret: true,
    advice: fromRegistration("registerToken"),
  }),
  expiresAt: field(z.iso.datetime({ offset: true, error: "must be an ISO date-time" }).optional(), {
    quoted: true,
    advice: fromRegistration("expiresAt"),
  }),
  /** Seconds to wait for the file to be served before giving up (default 600). */
  timeout: field(
    z.number().positive("must be a positive number of seconds").default(DEFAULT_TIMEOUT_SECONDS),
    {
      quoted: true,
      compare: recordedUnlessGiven,
      advice: "give the seconds to wait for the verification file, such as 600, or leave timeout out for 600",
    },
  ),
  ...commonFields("input"),
});
/** The members a verification needs unless it adopts. */
export const VERIFY_MEMBERS = ["verifier", "url", "registerToken", "expiresAt"] as const;
export type VerificationInputs = z.output<typeof VerificationInputs>;

/** The registered domain. Its id is the domain_uuid. */
export const VerificationOutputs = z.object({
  domainUuid: z.string(),
  domainName: z.string(),
  status: z.enum(["registered", "adopted"]),
  createTime: z.string().optional(),
  adopt: z.boolean().default(false),
  verifier: z.string().optional(),
  url: z.string().optional(),
  expiresAt: z.string().optional(),
  timeout: z.number().default(DEFAULT_TIMEOUT_SECONDS),
  /** The organization that owns the domain, when the service names one. */
  organization: z.string().optional(),
  /** A salted hash of the base URL and token the domain was registered or last verified with. */
  credentialsHash: field(z.string().optional(), { secret: true }),
  ...commonFields("state"),
});
export type VerificationOutputs = z.output<typeof VerificationOutputs>;

/** The secret inputs and members of state of each step: the dynamic provider and the plugin both mark them secret. */
export const REGISTRATION_SECRETS = secretsOf(RegistrationInputs, RegistrationOutputs);
export const VERIFICATION_SECRETS = secretsOf(VerificationInputs, VerificationOutputs);
/** How each step's check failures describe its inputs: the register token and connection are never quoted. */
const REGISTRATION_ADVICE = fieldAdvice(RegistrationInputs);
const VERIFICATION_ADVICE = fieldAdvice(VerificationInputs);

/*
 * Which registrations of this process started on a hostname the organization had already registered. The
 * verification that finishes such a registration finds the domain registered, and must record that this
 * stack did not register it (status `adopted`): its destroy then leaves the domain to whoever did.
 */

/** The verifiers of registrations started while their hostname was already registered. */
const REGISTERED_AT_START = contextKey(
  "registrations started on a registered hostname",
  () => new Set<string>(),
);

/** Notes that the registration with `verifier` started while its hostname was already registered. */
export function noteRegisteredAtStart(verifier: string): void {
  processContext().get(REGISTERED_AT_START).add(verifier);
}

/** Whether the registration with `verifier` started, in this process, on an already registered hostname. */
export function wasRegisteredAtStart(verifier: string | undefined): boolean {
  return verifier !== undefined && processContext().get(REGISTERED_AT_START).has(verifier);
}

/** The topic under which a process says once that `domainName` is shared (notices.ts). */
export const sharedTopic = (domainName: string): string => `shared ${domainName}`;

/*
 * What a Domain says to the person running Pulumi when nothing failed: that it shares a hostname another
 * stack registered, or that a destroy leaves such a hostname registered. One line each, on the provider's
 * stderr, which the engine shows with the command's output (the dynamic-provider host has no other way to
 * speak outside a failure). Secrets the process has seen are hidden from it.
 */

/** The lines already said in this process, so that a check and a create of one run say a thing once. */
const TOLD = contextKey("domain notices told", () => new Set<string>());

/**
 * Says `line`, unless this process already said something under `topic` (by default, the line itself).
 * Answers whether it said it.
 */
export function tell(line: string, topic: string = line): boolean {
  const told = processContext().get(TOLD);
  if (told.has(topic)) return false;
  told.add(topic);
  process.stderr.write(`${redact(line)}\n`);
  return true;
}

/** Marks `topic` as said, when another channel (the plugin's warning on a resource) said it. */
export function markTold(topic: string): void {
  processContext().get(TOLD).add(topic);
}

/*
 * What `pulumi preview` runs for the steps: check and diff. Neither calls the API but to ask, for a
 * hostname new to its registration, whether it is registered already.
 */

/**
 * Validates the hostname. For a hostname new to this resource (a new Domain, or another hostname), it
 * also asks the service once whether the organization already registered it: if so, the Domain will share
 * it, and says so now, at preview, before anything is created. A Domain that opts in with `adopt` has no
 * registration, so it is never told. Unknown or invalid inputs, and a listing that fails, skip the question.
 */
async function checkRegistration(
  settings: Settings,
  olds: ResourceProps,
  news: ResourceProps,
  context: CheckContext = {},
) {
  rememberSecret((news.connection as { token?: unknown } | undefined)?.token);
  const { withSettingsFailure } = await import("../lifecycle/client-settings.js");
  const result = withSettingsFailure(
    checkInputs<RegistrationInputs>(RegistrationInputs, news, REGISTRATION_ADVICE),
    settings,
  );
  const warnings: { urn: string; message: string }[] = [];
  if (result.failures.length === 0 && olds.domainName !== news.domainName && !containsUnknown(news)) {
    // Loaded here: only a hostname new to its resource needs the client.
    const { registeredAlready } = await import("./registered-domains.js");
    const found = await registeredAlready(result.inputs, settings);
    if (found) {
      const message = alreadyRegisteredNotice(
        found.domainName,
        found.domainUuid,
        found.owner.organization,
        true,
      );
      const topic = sharedTopic(found.domainName);
      // The provider plugin shows a warning on the resource; the dynamic-provider host cannot.
      if (context.urn === undefined) tell(message, topic);
      else {
        markTold(topic);
        warnings.push({ urn: context.urn, message });
      }
    }
  }
  return { ...result, warnings };
}

/**
 * The diff of a step declared by `inputs`: a change to an input whose facts say it replaces is a new
 * step; every other change is in place.
 */
function declaredDiff(
  inputs: z.ZodObject,
  outputs: { parse(value: unknown): Readonly<Record<string, unknown>> },
) {
  const kinds = inputKinds(inputs);
  const replacing = fieldsWhere(inputs, (facts) => facts.replaces);
  return async (settings: Settings, _id: string, olds: ResourceProps, news: ResourceProps) => {
    const changed = changedInputs(kinds, outputs.parse(olds), news, fallbacksOf(settings));
    return {
      changes: changed.length > 0,
      replaces: changed.filter((key) => replacing.includes(key)),
      deleteBeforeReplace: false,
    };
  };
}

/** A new hostname needs a new registration; credentials and language change in place. */
const diffRegistration = declaredDiff(RegistrationInputs, RegistrationOutputs);

async function checkVerification(
  settings: Settings,
  _olds: ResourceProps,
  news: ResourceProps,
): Promise<{ inputs: ResourceProps; failures: CheckFailure[] }> {
  rememberSecret(news.registerToken);
  rememberSecret((news.connection as { token?: unknown } | undefined)?.token);
  const result = checkInputs(VerificationInputs, news, VERIFICATION_ADVICE);
  if (news.adopt !== true) {
    for (const key of VERIFY_MEMBERS) {
      if (news[key] === undefined)
        result.failures.push(
          checkFailure(key, "is required unless adopt is true", undefined, VERIFICATION_ADVICE),
        );
    }
  }
  const { withSettingsFailure } = await import("../lifecycle/client-settings.js");
  return withSettingsFailure(result, settings);
}

/** Another hostname, verifier or adopt mode is another verification; `timeout` and credentials change in place. */
const diffVerification = declaredDiff(VerificationInputs, VerificationOutputs);

/** DomainRegistration's check and diff, as its declaration loads them. */
export const registrationPlan = { check: checkRegistration, diff: diffRegistration };
/** DomainVerification's check and diff, as its declaration loads them. */
export const verificationPlan = { check: checkVerification, diff: diffVerification };
