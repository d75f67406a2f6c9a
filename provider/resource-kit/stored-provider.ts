import type * as pulumi from "@pulumi/pulumi";
import type { DeclaredResource } from "./declaration";
import { withSecretOutputs } from "./options";

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
 * What one of this package's dynamic resource classes passes to `pulumi.CustomResource`, as
 * `pulumi.dynamic.Resource` would register it: the type's `pulumi-nodejs:dynamic` token, the name, `props`
 * with `storedProviderText` as `__provider` rather than a serialized closure (which also spares the
 * program loading Pulumi's closure serializer), and the options with the type's secret outputs added.
 */
export function dynamicResourceArgs(
  declared: DeclaredResource,
  name: string,
  props: pulumi.Inputs,
  opts: pulumi.CustomResourceOptions,
): [string, string, pulumi.Inputs, pulumi.CustomResourceOptions] {
  return [
    declared.token,
    name,
    { ...props, __provider: storedProviderText(declared.key) },
    withSecretOutputs(opts, declared.secrets.outputs),
  ];
}
