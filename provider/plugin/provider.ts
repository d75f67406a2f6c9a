/**
 * The provider plugin `service` as the Node SDK serves it (`@pulumi/pulumi/provider`): every resource the
 * registry declares, under its plugin type token, and the Domain component through Construct.
 */
import type * as pulumi from "@pulumi/pulumi";
import type * as provider from "@pulumi/pulumi/provider";
import { requestCancel } from "../context/engine-cancel";
import { noteProgramCall } from "../context/saved-state";
import { DOMAIN_COMPONENT_TYPE } from "../domain/declaration";
import type { DetailedDiff } from "../lifecycle/detailed-diff";
import type { ResourceProps } from "../lifecycle/methods";
import * as registry from "../registry";
import type { DeclaredResource } from "../resource-kit/declaration";
import type { Settings } from "../settings/value";
import { CustomResource } from "./custom-resource";
import type { WarnOnResource } from "./engine-log";
import { packageFile, packageVersion } from "./package-files";

/** What the engine sends that the SDK's server does not pass on (see server-hooks.ts). */
export interface EngineExtras {
  /** The stored inputs sent with a Diff of the resource `urn`, if any. */
  oldInputs(urn: string): ResourceProps | undefined;
  /** Keeps the detailed diff of the Diff of the resource `urn`, which the SDK's server would drop. */
  showDiff(urn: string, detailed: DetailedDiff): void;
  /** Shows a warning on the resource `urn` (see engine-log.ts). */
  warn: WarnOnResource;
  /** The settings the engine's Configure resolved for this provider (configuration.ts). */
  settings(): Settings;
}

/** The type token in a URN (`urn:pulumi:stack::project::parent$type::name`). */
function typeOf(urn: string): string {
  const qualified = urn.split("::")[2] ?? "";
  return qualified.slice(qualified.lastIndexOf("$") + 1);
}

/**
 * The provider plugin's implementation, over the resources the registry declares. Each failure is answered
 * as soon as it happens: the engine decides what follows (it ends the deployment on the first one, unless
 * the user ran `pulumi up --continue-on-error`).
 */
export function serviceProvider(extras: EngineExtras): provider.Provider {
  const declared: readonly DeclaredResource[] = Object.values(registry);
  const resources = new Map(declared.map((d) => [d.pluginToken, new CustomResource(d, extras.warn)]));
  const version = packageVersion();
  const resourceOf = (urn: string): CustomResource => {
    const type = typeOf(urn);
    const resource = resources.get(type);
    if (resource) return resource;
    throw new Error(
      `The service provider plugin ${version} has no resource type ${type} (${urn}); it serves ${[...resources.keys()].join(", ")}. Correct the type token in the program, or install the version of @service/pulumi that has it.`,
    );
  };
  return {
    version,
    getSchema: async () => packageFile("schema.json"),
    check: async (urn, olds, news) => resourceOf(urn).check(extras.settings(), urn, olds, news),
    diff: async (id, urn, olds, news) => {
      const { detailedDiff, ...answer } = await resourceOf(urn).diff(
        extras.settings(),
        id,
        olds,
        news,
        extras.oldInputs(urn),
      );
      if (detailedDiff) extras.showDiff(urn, detailedDiff);
      return answer;
    },
    create: async (urn, inputs) => resourceOf(urn).create(extras.settings(), inputs),
    read: async (id, urn, props) => resourceOf(urn).read(extras.settings(), id, props ?? {}),
    update: async (id, urn, olds, news) => resourceOf(urn).update(extras.settings(), id, olds, news),
    delete: async (id, urn, props) => resourceOf(urn).delete(extras.settings(), id, props),
    cancel: async () => requestCancel(),
    construct: async (name, type, inputs, opts: pulumi.ComponentResourceOptions) => {
      if (type !== DOMAIN_COMPONENT_TYPE) {
        throw new Error(
          `The service provider plugin ${version} has no component ${type}; its only component is ${DOMAIN_COMPONENT_TYPE}. Correct the type token in the program.`,
        );
      }
      noteProgramCall();
      // Loaded here: a plugin that serves only custom resources never loads the component's modules.
      const { constructDomain } = await import("./domain-component.js");
      return constructDomain(name, inputs, opts);
    },
  };
}
