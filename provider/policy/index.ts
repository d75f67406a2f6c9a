/**
 * `@service/pulumi/policy`: CrossGuard policies for Webhooks and Domains, for `@pulumi/policy` (an
 * optional peer dependency). `node_modules/@service/pulumi/policy-pack` serves them as a ready pack.
 */
export { servicePolicies } from "./policies";
