/**
 * The two dynamic steps of a domain, declared once each, and the Domain component's type token.
 * registry.ts lists the steps; the runtime contract serves them under `domainRegistration` and
 * `domainVerification`.
 */
import { lazyLifecycle } from "../lifecycle/lazy-load";
import { declareResource, pluginToken } from "../resource-kit/declaration";

/**
 * The Domain component's type token, in a program and in the provider plugin alike; policies find a
 * domain's steps below it.
 */
export const DOMAIN_COMPONENT_TYPE = pluginToken("Domain");

/** DomainRegistration's lifecycle (start_registration). */
export const domainRegistrationLifecycle = lazyLifecycle(
  async () => (await import("./resource.js")).registrationPlan,
  async () => (await import("./lifecycle.js")).registration,
);

/** DomainVerification's lifecycle (finish_registration), which stands for the registered domain. */
export const domainVerificationLifecycle = lazyLifecycle(
  async () => (await import("./resource.js")).verificationPlan,
  async () => (await import("./lifecycle.js")).verification,
);

/** DomainRegistration, as the registry lists it. */
export const domainRegistration = declareResource({
  key: "domainRegistration",
  type: "DomainRegistration",
  policy: "domainStep",
  // What resource.ts's fields say is secret (REGISTRATION_SECRETS), spelled out because the registry
  // loads no zod before a first check; test/provider/domain/declaration.test.ts holds the two together.
  secrets: { inputs: ["connection"], outputs: ["registerToken", "connection"] },
  lifecycle: domainRegistrationLifecycle,
});

/** DomainVerification, as the registry lists it. */
export const domainVerification = declareResource({
  key: "domainVerification",
  type: "DomainVerification",
  policy: "domainStep",
  // As VERIFICATION_SECRETS says (see above).
  secrets: { inputs: ["registerToken", "connection"], outputs: ["credentialsHash", "connection"] },
  lifecycle: domainVerificationLifecycle,
});
