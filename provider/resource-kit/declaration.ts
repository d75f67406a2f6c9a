/**
 * How a resource type is declared, once, in its own folder: the name its lifecycle is served under, its
 * type tokens, the lifecycle itself, which of its properties are secrets and what the policy pack
 * recognises it as. registry.ts lists the declarations; the runtime contract, the stored provider's key,
 * the resource classes' type tokens, the provider plugin, its schema and the policy pack's tokens all
 * read them from there.
 */
import { PLUGIN_PACKAGE } from "../../contract/pulumi-package";
import { atEngineEdge } from "../lifecycle/boundary";
import type { ResourceLifecycle } from "../lifecycle/methods";

/**
 * The module part of every dynamic resource's type token, `pulumi-nodejs:dynamic/<module>:<type>`.
 * Renaming it would replace every resource of this package in every stack.
 */
const DYNAMIC_MODULE = "service";

/** The provider plugin's type token for `type`, such as `service:index:Webhook`. */
export function pluginToken(type: string): string {
  return `${PLUGIN_PACKAGE}:index:${type}`;
}

/**
 * The properties of a resource that hold secrets or are derived from them. The dynamic provider and the plugin mark them
 * secret: the dynamic resource classes through `additionalSecretOutputs` and secret inputs, the provider
 * plugin by answering them as secrets; the schema marks them `secret: true`.
 */
export interface SecretProperties {
  /** Inputs that are secrets, such as a webhook's `secretKey`. */
  readonly inputs: readonly string[];
  /** Outputs that are secrets or derived from one, such as a salted hash of a secret. */
  readonly outputs: readonly string[];
}

/** What the policy pack reads a resource as: a Webhook, or one step of a Domain (it carries `domainName`). */
export type PolicyRole = "webhook" | "domainStep";

/** A resource type as its folder declares it. */
export interface ResourceDeclaration<Key extends string> {
  /**
   * The name the runtime contract serves the lifecycle under. Provider code stored in state calls
   * `require("@service/pulumi/runtime")[key]`, so a key never changes once released.
   */
  readonly key: Key;
  /** The type in the resource's type token; renaming it would replace every resource of the type. */
  readonly type: string;
  /** What the policy pack reads the resource as; absent when no policy looks at it. */
  readonly policy?: PolicyRole;
  /** Which inputs and outputs are secrets. */
  readonly secrets: SecretProperties;
  /** The six methods, each loading its module when first called (see lifecycle/lazy-load.ts). */
  readonly lifecycle: ResourceLifecycle;
}

/** A declared resource: its lifecycle, as the runtime contract serves it, and what is known about it. */
export interface DeclaredResource<Key extends string = string> extends ResourceLifecycle {
  /** The name the runtime contract serves it under; it never changes once released. */
  readonly key: Key;
  /** The type in its type token, such as `Webhook`. */
  readonly type: string;
  /** Its dynamic resource's full type token, as the engine and the policies see it. */
  readonly token: string;
  /** Its type token as the provider plugin serves it, such as `service:index:Webhook`. */
  readonly pluginToken: string;
  /** Which inputs and outputs are secrets. */
  readonly secrets: SecretProperties;
  /** What the policy pack reads it as, or undefined. */
  readonly policy: PolicyRole | undefined;
}

/**
 * The declared resource for `declaration`: its lifecycle's methods (each through the edge to the engine,
 * lifecycle/boundary.ts), key, type, tokens, secrets and policy role.
 */
export function declareResource<Key extends string>(
  declaration: ResourceDeclaration<Key>,
): DeclaredResource<Key> {
  const { key, type, policy, secrets, lifecycle } = declaration;
  return {
    ...atEngineEdge(lifecycle),
    key,
    type,
    token: `pulumi-nodejs:dynamic/${DYNAMIC_MODULE}:${type}`,
    pluginToken: pluginToken(type),
    secrets,
    policy,
  };
}
