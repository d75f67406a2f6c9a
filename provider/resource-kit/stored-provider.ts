import type * as pulumi from "@pulumi/pulumi";

/**
 * The dynamic provider of a resource type as the stack's state stores it (`__provider`, in the inputs and
 * again in the outputs of every resource): one line that asks the runtime contract for the provider by the
 * resource's key. The dynamic-provider host evaluates it once per process and text. Pulumi's closure
 * serializer would store each method wrapped in its own scope, about 3.5 KB twice per resource, which the
 * engine rewrites with the whole checkpoint on every step; this is under 100 bytes, holds no secret and
 * runs the installed code. Text that earlier versions stored calls `[key][method]` on the runtime contract
 * instead, which keeps serving it.
 */
export function storedProviderText(key: string): string {
  return `exports.handler = () => require("@service/pulumi/runtime").storedProvider(${JSON.stringify(key)});\n`;
}

/**
 * The inputs to register a dynamic resource of this package with (`pulumi.CustomResource` under its
 * `pulumi-nodejs:dynamic` type token, as `pulumi.dynamic.Resource` registers one): `props` and, as
 * `__provider`, `storedProviderText` rather than a serialized closure, which also spares the program
 * loading Pulumi's closure serializer.
 */
export function withStoredProvider(key: string, props: pulumi.Inputs): pulumi.Inputs {
  return { ...props, __provider: storedProviderText(key) };
}
