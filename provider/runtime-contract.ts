/**
 * The runtime contract: what the provider text stored in a stack's state requires by name
 * (`@service/pulumi/runtime`) and calls as `storedProvider(key, contract, message)`. Its version is
 * `CONTRACT` (resource-kit/contract.ts); text that asks for another one gets the one sentence the text
 * carries. A released contract's names, signatures and state stay as long as a version serves it. The
 * package.json `exports["./runtime"]` entry points here; it serves every resource that registry.ts lists,
 * under its key.
 */

import { assertSupportedNode } from "./context/node-version";
import { setProgramLanguage } from "./context/program-language";
import { withoutTrace } from "./errors/reported";
import type { ResourceProps } from "./lifecycle/methods";
import { configureFromStack } from "./lifecycle/stack-config";
import * as registry from "./registry";
import { CONTRACT, contractNeededMessage } from "./resource-kit/contract";
import type { DeclaredResource } from "./resource-kit/declaration";
import { resolve } from "./settings/resolve";
import type { ConfigSource, Settings, SettingTexts } from "./settings/value";

// Before anything else: on an old Node the failure below is the only one the user should see. The
// imports of this module are plain JavaScript that loads on any Node; lifecycles load their modules
// when called. The dynamic-provider host also prints what it catches, with its stack trace: it has none.
try {
  assertSupportedNode();
} catch (error) {
  throw withoutTrace(error);
}

export type { CheckContext, ResourceLifecycle, ResourceProps } from "./lifecycle/methods";
export type { DeclaredResource, PolicyRole, SecretProperties } from "./resource-kit/declaration";
export type { ConfigSource, Settings, SettingTexts };
export { CONTRACT };

/**
 * Reads the stack configuration; the engine calls it before the first operation of every process. Only the
 * dynamic-provider host calls it: dynamic resources exist only in Node.js programs, so advice names options
 * and properties as TypeScript spells them. The host gives every value as stack config holds it, as text
 * (a number's digits, an object's JSON), which reads the same in the spelling of the typed schema as in
 * the old one (schema.json types them; a string is the only way stack config keeps a top-level number):
 * no warning about an old spelling is due here. Answers the settings, which the provider keeps.
 */
export function configure(config: ConfigSource): Settings {
  setProgramLanguage("nodejs");
  return configureFromStack(config);
}

/** Every declared resource, by the key the stored provider text names. */
const SERVED: ReadonlyMap<string, DeclaredResource> = new Map(
  Object.values(registry).map((resource: DeclaredResource) => [resource.key, resource]),
);

/** A dynamic provider, as the dynamic-provider host calls it: the lifecycle's methods and `configure`. */
export interface StoredProviderMethods {
  /** Reads the stack configuration (see `configure`). */
  configure(request: { readonly config: ConfigSource }): Promise<void>;
  /** The lifecycle's `check`. */
  check(olds: ResourceProps, news: ResourceProps): Promise<unknown>;
  /** The lifecycle's `diff`. */
  diff(id: string, olds: ResourceProps, news: ResourceProps): Promise<unknown>;
  /** The lifecycle's `create`. */
  create(props: ResourceProps): Promise<unknown>;
  /** The lifecycle's `read`. */
  read(id: string, props: ResourceProps): Promise<unknown>;
  /** The lifecycle's `update`. */
  update(id: string, olds: ResourceProps, news: ResourceProps): Promise<unknown>;
  /** The lifecycle's `remove`. */
  delete(id: string, props: ResourceProps): Promise<unknown>;
}

/**
 * The dynamic provider of the resource served under `key` for stored text of contract `contract`: what the
 * text asks for (resource-kit/stored-provider.ts), the host's `delete` being the lifecycle's `remove`.
 * Another contract fails every operation with `message`, the sentence the text carries because a runtime
 * older than the text cannot know which versions it needs (a version that stops serving a contract it
 * knows may name that contract's upper bound instead). The failure has no stack, so that the host prints the sentence alone (errors/reported.ts). A key this
 * version does not serve fails with what to do. The provider keeps the settings its `configure` resolves and
 * hands them to each method.
 */
export function storedProvider(key: string, contract: number, message: string): StoredProviderMethods {
  if (contract !== CONTRACT) {
    // This version's own range for a contract it knows (a later one may have closed it); else the text's.
    throw withoutTrace(new Error(contractNeededMessage(contract) ?? message));
  }
  const resource = SERVED.get(key);
  if (!resource) {
    throw withoutTrace(
      new Error(
        `The stack's state names a resource type ${JSON.stringify(key)} that this version of @service/pulumi does not serve: ` +
          "install the version that wrote the state (or a later one), then run the command again.",
      ),
    );
  }
  // This provider's settings, as its `configure` resolved them; the host configures every provider it
  // loads before its first operation, and a host that did not would leave the environment's, read once.
  let configured: Settings | undefined;
  const settings = () => (configured ??= resolve({}));
  return {
    configure: async (request) => {
      configured = configure(request.config);
    },
    check: (olds, news) => resource.check(settings(), olds, news),
    diff: (id, olds, news) => resource.diff(settings(), id, olds, news),
    create: (props) => resource.create(settings(), props),
    read: (id, props) => resource.read(settings(), id, props),
    update: (id, olds, news) => resource.update(settings(), id, olds, news),
    delete: (id, props) => resource.remove(settings(), id, props),
  };
}
