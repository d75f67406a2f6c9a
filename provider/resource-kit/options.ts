import * as pulumi from "@pulumi/pulumi";
import type { ConnectionInput } from "../../contract/common-types";

/** Adds the outputs a resource derives from secrets to `additionalSecretOutputs`, keeping the caller's. */
export function withSecretOutputs<T extends pulumi.CustomResourceOptions>(
  opts: T,
  outputs: readonly string[],
): T {
  return {
    ...opts,
    additionalSecretOutputs: [...new Set([...(opts.additionalSecretOutputs ?? []), ...outputs])],
  };
}

/** Marks the `connection` input secret, whatever the caller passed. */
export function withSecretConnection<T extends { readonly connection?: pulumi.Input<ConnectionInput> }>(
  args: T,
): T {
  return { ...args, connection: args.connection === undefined ? undefined : pulumi.secret(args.connection) };
}
