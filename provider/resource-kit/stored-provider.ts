import type * as pulumi from "@pulumi/pulumi";
import { CONTRACT, contractNeededMessage } from "./contract";
import type { DeclaredResource, SecretProperties } from "./declaration";
import { withSecretOutputs } from "./options";

/**
 * The dynamic provider of a resource type as the stack's state stores it (`__provider`, in the inputs and
 * again in the outputs of every resource): one line that asks the runtime contract for the provider by the
 * resource's key and the contract number. The dynamic-provider host evaluates it once per process and
 * text. Pulumi's closure serializer would store each method wrapped in its own scope, about 3.5 KB twice
 * per resource, which the engine rewrites with the whole checkpoint on every step; this holds no secret
 * and runs the installed code.
 *
 * The line carries the sentence of `contractNeededMessage`: when the runtime cannot even be resolved from
 * the project (the package uninstalled, only a transitive dependency under pnpm, a program bundled without
 * node_modules), nothing of the package runs to explain it, so the line throws it itself, instead of
 * Node's "Cannot find module"; and so it does when the runtime it finds has no `storedProvider` at all,
 * instead of a TypeError. Its empty stack keeps the host's printout of it to the sentence alone
 * (errors/reported.ts). A runtime that does not serve the contract throws the same sentence, which the line
 * hands it because a runtime older than the text cannot know the range.
 */
export function storedProviderText(key: string): string {
  const message = JSON.stringify(contractNeededMessage(CONTRACT)!);
  return (
    `exports.handler=()=>{const m=${message},p="@service/pulumi/runtime",` +
    `e=()=>{throw Object.assign(Error(m),{stack:""})};try{require.resolve(p)}catch{e()}` +
    `const s=require(p).storedProvider;return typeof s=="function"?s(${JSON.stringify(key)},${CONTRACT},m):e()}\n`
  );
}

/**
 * What one of this package's dynamic resource classes passes to `pulumi.CustomResource`, as
 * `pulumi.dynamic.Resource` would register it: the type's `pulumi-nodejs:dynamic` token, the name, `props`
 * with `storedProviderText` as `__provider` rather than a serialized closure (which also spares the
 * program loading Pulumi's closure serializer), and the options with the type's secret outputs added
 * (`secrets`, as the resource's declaration derives them).
 */
export function dynamicResourceArgs(
  declared: DeclaredResource,
  name: string,
  props: pulumi.Inputs,
  opts: pulumi.CustomResourceOptions,
  secrets: SecretProperties = declared.secrets,
): [string, string, pulumi.Inputs, pulumi.CustomResourceOptions] {
  return [
    declared.token,
    name,
    { ...props, __provider: storedProviderText(declared.key) },
    withSecretOutputs(opts, secrets.outputs),
  ];
}
