/**
 * How a resource type is declared, once, in its own folder: the name its lifecycle is served under, its
 * type token, the lifecycle itself and what the policy pack recognises it as. registry.ts lists the
 * declarations; the runtime contract, the stored provider's key, the resource classes' type tokens and
 * the policy pack's tokens all read them from there.
 */
import type { ResourceLifecycle } from "./resource-lifecycle";

/**
 * The module part of every dynamic resource's type token, `pulumi-nodejs:dynamic/<module>:<type>`.
 * Renaming it would replace every resource of this package in every stack.
 */
export const DYNAMIC_MODULE = "service";

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
  /** The six methods, each loading its module when first called (see lazy-lifecycle.ts). */
  readonly lifecycle: ResourceLifecycle;
}

/** A declared resource: its lifecycle, as the runtime contract serves it, and what is known about it. */
export interface DeclaredResource<Key extends string = string> extends ResourceLifecycle {
  /** The name the runtime contract serves it under; it never changes once released. */
  readonly key: Key;
  /** The type in its type token, such as `Webhook`. */
  readonly type: string;
  /** Its full type token, as the engine and the policies see it. */
  readonly token: string;
  /** What the policy pack reads it as, or undefined. */
  readonly policy: PolicyRole | undefined;
}

/** The declared resource for `declaration`: its lifecycle's methods, its key, type, token and policy role. */
export function declareResource<Key extends string>(
  declaration: ResourceDeclaration<Key>,
): DeclaredResource<Key> {
  const { key, type, policy, lifecycle } = declaration;
  return { ...lifecycle, key, type, token: `pulumi-nodejs:dynamic/${DYNAMIC_MODULE}:${type}`, policy };
}
