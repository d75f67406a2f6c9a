/**
 * The provider plugin's own resources, registered from inside the plugin while it constructs a component:
 * a Domain's steps and its verification file, each under its plugin type token. The engine then calls this
 * same plugin for their lifecycles, so no dynamic provider (and no serialized code) is involved.
 */
import * as pulumi from "@pulumi/pulumi";
import type { DeclaredResource } from "../resource-kit/declaration";

/** A custom resource of the plugin; what it holds depends on its type token. */
class PluginResource extends pulumi.CustomResource {}

/**
 * Registers `declared` under its plugin token with `inputs`, its secret inputs marked secret, and gives
 * the resource an Output for each of `outputs`.
 */
export function pluginResource<Outputs extends string>(
  declared: DeclaredResource,
  name: string,
  inputs: Record<string, pulumi.Input<unknown> | undefined>,
  outputs: readonly Outputs[],
  opts: pulumi.CustomResourceOptions,
): pulumi.CustomResource & Record<Outputs, pulumi.Output<never>> {
  const secret = new Set(declared.secrets.inputs);
  const props: pulumi.Inputs = {};
  for (const [key, value] of Object.entries(inputs)) {
    props[key] = value !== undefined && secret.has(key) ? pulumi.secret(value) : value;
  }
  for (const key of outputs) if (!(key in props)) props[key] = undefined;
  return new PluginResource(declared.pluginToken, name, props, opts) as PluginResource &
    Record<Outputs, pulumi.Output<never>>;
}
