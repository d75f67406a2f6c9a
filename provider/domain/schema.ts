import { z } from "zod";
import { AcceptLanguage, ConnectionInput } from "../api/connection";
import { Hostname } from "../api/domains/requests";

const common = {
  acceptLanguage: AcceptLanguage.optional(),
  connection: ConnectionInput.optional(),
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
  /** Take over an already registered domain: no registration, no file, no finish call. */
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
  /** The organization that owns the domain (absent from state written before 0.2). */
  organization: z.string().optional(),
  /** A salted hash of the base URL and token the domain was registered or last verified with. */
  credentialsHash: z.string().optional(),
  ...common,
});
export type VerificationOutputs = z.output<typeof VerificationOutputs>;
