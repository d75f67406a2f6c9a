import { z } from "zod";
import { AcceptLanguage, ConnectionInput } from "../../contract/connection";
import { Hostname } from "../../contract/domains/requests";
import type { FieldAdvice } from "../lifecycle/check";
import { COMMON_NEXT_STEPS, COMMON_QUOTED } from "../lifecycle/field-advice";

const common = {
  acceptLanguage: AcceptLanguage.optional(),
  connection: ConnectionInput.optional(),
};

/**
 * How the domain steps' check failures describe their inputs. The register token and the connection are
 * never quoted; the verification's members other than domainName come from the registration, so their
 * next step is to pass its outputs on.
 */
export const DOMAIN_FIELD_ADVICE: FieldAdvice = {
  quoted: ["domainName", "adopt", "verifier", "url", "expiresAt", "timeout", ...COMMON_QUOTED],
  nextSteps: {
    ...COMMON_NEXT_STEPS,
    domainName: "give the bare hostname your receiver is served at, such as hooks.example.com",
    adopt: "give true to take over a domain the organization already registered, or leave adopt out",
    timeout: "give the seconds to wait for the verification file, such as 600, or leave timeout out for 600",
    ...Object.fromEntries(
      ["verifier", "url", "registerToken", "expiresAt"].map((key) => [
        key,
        `pass the DomainRegistration's ${key} output, or use the Domain component, which does`,
      ]),
    ),
  },
};

export const RegistrationInputs = z.object({ domainName: Hostname, ...common });
export type RegistrationInputs = z.output<typeof RegistrationInputs>;

/** A started registration. The register token is a secret output. */
export const RegistrationOutputs = z.object({
  domainName: z.string(),
  url: z.string(),
  verifier: z.string(),
  /** The object key to publish: the path of `url` without its leading slash. */
  key: z.string(),
  registerToken: z.string(),
  expiresAt: z.string(),
  ...common,
});
export type RegistrationOutputs = z.output<typeof RegistrationOutputs>;

const DEFAULT_TIMEOUT_SECONDS = 600;

export const VerificationInputs = z.object({
  domainName: Hostname,
  /** Share an already registered domain: no registration, no file, no finish call, and no deactivation on delete. */
  adopt: z.boolean().default(false),
  verifier: z.string().min(1).optional(),
  url: z.url({ protocol: /^https$/, error: "must be the https URL start_registration returned" }).optional(),
  registerToken: z.string().min(1).optional(),
  expiresAt: z.iso.datetime({ offset: true, error: "must be an ISO date-time" }).optional(),
  /** Seconds to wait for the file to be served before giving up (default 600). */
  timeout: z.number().positive("must be a positive number of seconds").default(DEFAULT_TIMEOUT_SECONDS),
  ...common,
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
  credentialsHash: z.string().optional(),
  ...common,
});
export type VerificationOutputs = z.output<typeof VerificationOutputs>;
