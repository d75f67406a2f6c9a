/**
 * One declared resource (registry.ts) as the provider plugin serves it: the same lifecycle the dynamic
 * resource calls, with the engine's secrets unwrapped on the way in and wrapped on the way out. What is
 * secret comes from the declaration, plus whatever arrived secret, so that nothing secret ever reaches the
 * engine in plain text, whichever language the program is written in.
 */
import type * as provider from "@pulumi/pulumi/provider";
import type { DetailedDiff } from "../lifecycle/detailed-diff";
import type { ResourceProps } from "../lifecycle/methods";
import type { DeclaredResource } from "../resource-kit/declaration";
import type { Settings } from "../settings/value";
import type { WarnOnResource } from "./engine-log";
import { markSecrets, revealSecrets } from "./secrets";

/** What a lifecycle's `check`, `diff`, `create`, `read` and `update` answer, as far as the plugin reads it. */
interface Answer {
  readonly inputs?: ResourceProps;
  readonly failures?: provider.CheckFailure[];
  readonly warnings?: readonly { readonly urn: string; readonly message: string }[];
  readonly changes?: boolean;
  readonly replaces?: string[];
  readonly deleteBeforeReplace?: boolean;
  readonly detailedDiff?: DetailedDiff;
  readonly id?: string;
  readonly outs?: ResourceProps;
  readonly props?: ResourceProps;
}

/**
 * An error that carries the state to keep (a create whose outcome is unknown): the engine records
 * `properties`, which must have their secrets wrapped like any other answer.
 */
function withSecretProperties(error: unknown, secretKeys: Iterable<string>): unknown {
  const properties = (error as { properties?: unknown } | null)?.properties;
  if (typeof properties !== "object" || properties === null) return error;
  const marked = Object.create(error as object) as Record<string, unknown>;
  Object.defineProperty(marked, "properties", {
    value: markSecrets(properties as ResourceProps, secretKeys),
    enumerable: false,
  });
  return marked;
}

/**
 * The plugin's methods for one resource type, over its declared lifecycle, each under the `settings` the
 * provider's Configure resolved.
 */
export class CustomResource {
  /**
   * @param declared - The resource as the registry declares it: its lifecycle and its secrets.
   * @param warn - Shows a warning on a resource, as the lifecycle's check asks.
   */
  constructor(
    readonly declared: DeclaredResource,
    private readonly warn: WarnOnResource,
  ) {}

  /** The outputs to answer as secrets: the declared ones, and those named like an input that was secret. */
  private outputSecrets(inputSecrets: Iterable<string>): Set<string> {
    return new Set([...this.declared.secrets.outputs, ...inputSecrets]);
  }

  /** The inputs to answer as secrets: the declared ones, and those that arrived secret. */
  private inputSecrets(arrivedSecret: Iterable<string>): Set<string> {
    return new Set([...this.declared.secrets.inputs, ...arrivedSecret]);
  }

  /**
   * Validates `news` (defaults applied, filters canonical), with its secrets wrapped again. The lifecycle
   * gets the URN, which the dynamic-provider host never passes on, and may ask for warnings to be shown.
   */
  async check(
    settings: Settings,
    urn: string,
    olds: ResourceProps,
    news: ResourceProps,
  ): Promise<provider.CheckResult> {
    const incoming = revealSecrets(news);
    const result = (await this.declared.check(settings, revealSecrets(olds).props, incoming.props, {
      urn,
    })) as Answer;
    for (const warning of result.warnings ?? []) this.warn(warning.urn, warning.message);
    return {
      inputs: markSecrets(result.inputs ?? incoming.props, this.inputSecrets(incoming.secretKeys)),
      failures: result.failures ?? [],
    };
  }

  /**
   * `olds` are the stored outputs and `oldInputs` the stored inputs: the lifecycle sees the outputs over
   * the inputs, so that an input that state keeps only as a hash (a secret) can still be compared when
   * the outputs lack that hash (a webhook adopted by `pulumi import`). The answer's `detailedDiff` is what
   * the engine is to show; the SDK's server drops it (server-hooks.ts carries it).
   */
  async diff(
    settings: Settings,
    id: string,
    olds: ResourceProps,
    news: ResourceProps,
    oldInputs: ResourceProps | undefined,
  ): Promise<provider.DiffResult & { readonly detailedDiff?: DetailedDiff }> {
    const state = { ...revealSecrets(oldInputs).props, ...revealSecrets(olds).props };
    const result = (await this.declared.diff(settings, id, state, revealSecrets(news).props)) as Answer;
    return {
      changes: result.changes,
      replaces: result.replaces ?? [],
      deleteBeforeReplace: result.deleteBeforeReplace ?? false,
      ...(result.detailedDiff ? { detailedDiff: result.detailedDiff } : {}),
    };
  }

  /**
   * Creates the object. A failure that carries state (a create whose outcome is unknown) keeps that
   * state's secrets wrapped, since the engine records it.
   */
  async create(settings: Settings, inputs: ResourceProps): Promise<provider.CreateResult> {
    const incoming = revealSecrets(inputs);
    const secrets = this.outputSecrets(incoming.secretKeys);
    try {
      const result = (await this.declared.create(settings, incoming.props)) as Answer;
      return { id: result.id!, outs: markSecrets(result.outs ?? {}, secrets) };
    } catch (error) {
      throw withSecretProperties(error, secrets);
    }
  }

  /** Refresh, or (with no stored state) `pulumi import` by id; `{}` when the object is gone. */
  async read(settings: Settings, id: string, props: ResourceProps): Promise<provider.ReadResult> {
    const stored = revealSecrets(props);
    const result = (await this.declared.read(settings, id, stored.props)) as Answer;
    if (!result.id) return {};
    return {
      id: result.id,
      props: markSecrets(result.props ?? {}, this.outputSecrets(stored.secretKeys)),
      // None when the refresh found nothing new: the engine then keeps the stored inputs as they are.
      ...(result.inputs === undefined
        ? {}
        : { inputs: markSecrets(result.inputs, this.inputSecrets(stored.secretKeys)) }),
    };
  }

  /** Applies a change that is not a replacement (or settles a pending create); failures as for create. */
  async update(
    settings: Settings,
    id: string,
    olds: ResourceProps,
    news: ResourceProps,
  ): Promise<provider.UpdateResult> {
    const incoming = revealSecrets(news);
    const secrets = this.outputSecrets(incoming.secretKeys);
    try {
      const result = (await this.declared.update(
        settings,
        id,
        revealSecrets(olds).props,
        incoming.props,
      )) as Answer;
      return { outs: markSecrets(result.outs ?? {}, secrets) };
    } catch (error) {
      throw withSecretProperties(error, secrets);
    }
  }

  /** Deletes the object (a webhook or domain is deactivated). */
  async delete(settings: Settings, id: string, props: ResourceProps): Promise<void> {
    await this.declared.remove(settings, id, revealSecrets(props).props);
  }
}
