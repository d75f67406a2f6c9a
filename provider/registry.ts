/**
 * Every resource type this package serves, one line each. The runtime contract serves each under its
 * export name, which is its key; the policy pack reads the type tokens from here. Adding a resource is a
 * new folder with a declaration.ts (see resource-kit/declaration.ts) and one line below. Only declarations
 * belong here: everything this module exports becomes part of `@service/pulumi/runtime`.
 */
import * as domain from "./domain/declaration";
import * as publishers from "./publishers/declaration";
import type { DeclaredResource } from "./resource-kit/declaration";
import * as webhooks from "./webhook/declaration";

// Typed plainly, so that the declarations of `@service/pulumi/runtime` stop here: a re-export would make a
// consumer's type check load each lifecycle's modules, and with them zod's declarations.
/** The first step of a Domain: start_registration (DomainRegistration). */
export const domainRegistration: DeclaredResource<"domainRegistration"> = domain.domainRegistration;
/** The last step of a Domain: the file checked, then finish_registration (DomainVerification). */
export const domainVerification: DeclaredResource<"domainVerification"> = domain.domainVerification;
/** The verification file that directoryPublisher writes (VerificationFile). */
export const verificationFile: DeclaredResource<"verificationFile"> = publishers.verificationFile;
/** A webhook (Webhook). */
export const webhook: DeclaredResource<"webhook"> = webhooks.webhook;
