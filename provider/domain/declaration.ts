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
  () => import("./registration-plan.js"),
  () => import("./registration.js"),
);

/** DomainVerification's lifecycle (finish_registration), which stands for the registered domain. */
export const domainVerificationLifecycle = lazyLifecycle(
  () => import("./verification-plan.js"),
  () => import("./verification.js"),
);

/** DomainRegistration, as the registry lists it. */
export const domainRegistration = declareResource({
  key: "domainRegistration",
  type: "DomainRegistration",
  policy: "domainStep",
  secrets: { inputs: ["connection"], outputs: ["registerToken", "connection"] },
  lifecycle: domainRegistrationLifecycle,
});

/** DomainVerification, as the registry lists it. */
export const domainVerification = declareResource({
  key: "domainVerification",
  type: "DomainVerification",
  policy: "domainStep",
  secrets: { inputs: ["registerToken", "connection"], outputs: ["connection", "credentialsHash"] },
  lifecycle: domainVerificationLifecycle,
});
