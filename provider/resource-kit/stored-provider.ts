import * as pulumi from "@pulumi/pulumi";
import type { DeclaredResource } from "./declaration";

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
 * The base of every dynamic resource of this package: a `pulumi-nodejs:dynamic` resource, as
 * `pulumi.dynamic.Resource` registers one, whose `__provider` is `storedProviderText` rather than a
 * serialized closure (which also spares the program loading Pulumi's closure serializer).
 */
export abstract class StoredResource extends pulumi.CustomResource {
  /**
   * @param declared - The resource's declaration: its type token and the key its provider is served under.
   * @param name - The resource's name: its identity in the stack.
   * @param props - Its inputs, and its outputs as `undefined`.
   * @param opts - Resource options.
   */
  constructor(
    declared: Pick<DeclaredResource, "key" | "token">,
    name: string,
    props: pulumi.Inputs,
    opts: pulumi.CustomResourceOptions,
  ) {
    super(declared.token, name, { ...props, __provider: storedProviderText(declared.key) }, opts);
  }
}
