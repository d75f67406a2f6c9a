/**
 * Every resource type this package serves, one line each. The runtime contract serves each under its
 * export name, which is its key; the policy pack reads the type tokens from here. Adding a resource is a
 * new folder with a declaration.ts (see resource-declaration.ts) and one line below. Only declarations
 * belong here: everything this module exports becomes part of `@service/pulumi/runtime`.
 */
export { domainRegistration, domainVerification } from "./domain/declaration";
export { verificationFile } from "./publishers/declaration";
export { webhook } from "./webhook/declaration";
