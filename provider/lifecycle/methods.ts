/**
 * The shape of what the runtime contract serves for each resource type: the six methods that the
 * provider code stored in a stack's state calls. Inputs and outputs are property bags, as the engine
 * passes them; what each resource keeps in them is the resource's own business. Every method is handed the
 * settings its provider's `configure` resolved (settings/resolve.ts), so that no method reads them from the
 * process.
 */
import type { Settings } from "../settings/value";

/** Inputs or state as the engine passes them: plain JSON-like values, keyed by property name. */
export type ResourceProps = Record<string, unknown>;

/** What the caller of `check` knows of the resource beyond its inputs. */
export interface CheckContext {
  /**
   * The resource's URN. The provider plugin knows it; the dynamic-provider host does not pass it on, so
   * a dynamic resource's check never has it (and the provider code stored in state calls without it).
   */
  readonly urn?: string | undefined;
}

/**
 * The six methods the stored provider calls for one resource type. They answer what the matching method
 * of a `pulumi.dynamic.ResourceProvider` answers; each is called with the state that any earlier version
 * of this package wrote, and with the settings of the provider that calls it.
 */
export interface ResourceLifecycle {
  /**
   * Validates the inputs `news` (`olds` are the previous inputs); answers `{inputs, failures}`, and
   * `warnings` to show on resources by URN.
   */
  check(
    settings: Settings,
    olds: ResourceProps,
    news: ResourceProps,
    context?: CheckContext,
  ): Promise<unknown>;
  /**
   * Compares the stored state `olds` with the checked inputs `news`, without calling the API; answers
   * `{changes, replaces, deleteBeforeReplace}`.
   */
  diff(settings: Settings, id: string, olds: ResourceProps, news: ResourceProps): Promise<unknown>;
  /** Creates the object from the checked inputs; answers `{id, outs}`. */
  create(settings: Settings, props: ResourceProps): Promise<unknown>;
  /**
   * Refreshes the stored state `props`; answers `{id, props, inputs}`, or `{}` once the object is gone.
   * With nothing new on the service, `props` is the stored state and `inputs` is left out (the engine
   * then keeps the stored inputs), so that such a refresh rewrites nothing.
   */
  read(settings: Settings, id: string, props: ResourceProps): Promise<unknown>;
  /** Applies a change that `diff` did not mark as a replacement; answers `{outs}`. */
  update(settings: Settings, id: string, olds: ResourceProps, news: ResourceProps): Promise<unknown>;
  /** Deletes the object (a webhook or domain is deactivated); the provider's `delete` calls it. */
  remove(settings: Settings, id: string, props: ResourceProps): Promise<unknown>;
}
