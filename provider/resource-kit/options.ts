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

/**
 * Marks the `connection` input secret, whatever the caller passed; left out when not given, since every
 * property a resource registers costs the SDK four promises (and `connection` is no declared output).
 */
export function withSecretConnection<T extends { readonly connection?: pulumi.Input<ConnectionInput> }>(
  args: T,
): T {
  const { connection, ...rest } = args;
  return (connection === undefined ? rest : { ...rest, connection: pulumi.secret(connection) }) as T;
}
