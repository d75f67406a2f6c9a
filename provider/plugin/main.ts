/**
 * The provider plugin's entry: `plugin/index.js` (the engine runs it through the Node.js language host, or
 * as `pulumi-resource-service` on PATH) calls `serve` with the engine's arguments.
 */
import { main } from "@pulumi/pulumi/provider";
import { findProgramLanguage, setProgramLanguage } from "../context/program-language";
import type { DetailedDiff } from "../lifecycle/detailed-diff";
import type { ResourceProps } from "../lifecycle/methods";
import { resolve } from "../settings/resolve";
import type { Settings } from "../settings/value";
import { configureWith } from "./configuration";
import { type DiffResponseMessage, type ProviderProto, writeDetailedDiff } from "./diff-response";
import { engineAddressOf, engineWarnings } from "./engine-log";
import { watchEngine } from "./lifetime";
import { serviceProvider } from "./provider";
import { fromSdk, withRequestHooks } from "./server-hooks";

/**
 * Serves the plugin: prints its port on stdout and answers the engine until it is stopped, or until the
 * engine is gone (lifetime.ts).
 */
export async function serve(args: string[]): Promise<void> {
  const address = engineAddressOf(args);
  const lifetime = watchEngine(address);
  // The engine runs a provider plugin in the program's folder, whichever way it starts it: the project's
  // Pulumi.yaml there (or above) says the language that advice should spell options and properties in.
  setProgramLanguage(findProgramLanguage(process.cwd()));
  const oldInputs = new Map<string, ResourceProps | undefined>();
  const detailedDiffs = new Map<string, DetailedDiff>();
  const warn = engineWarnings(address);
  const configure = configureWith(warn);
  // The settings this provider's Configure resolved: the engine configures a provider before its first
  // operation; one it did not configure has the environment's, read once.
  let settings: Settings | undefined;
  const provider = lifetime.tracked(
    serviceProvider({
      oldInputs: (urn) => oldInputs.get(urn),
      showDiff: (urn, detailed) => detailedDiffs.set(urn, detailed),
      warn,
      settings: () => (settings ??= resolve({})),
    }),
  );
  await withRequestHooks(
    {
      configure: (request) => {
        settings = configure(request);
      },
      serving: lifetime.serving,
      diffing(urn, inputs) {
        oldInputs.set(urn, inputs);
        return (response) => {
          const detailed = detailedDiffs.get(urn);
          if (response && detailed) {
            writeDetailedDiff(
              response as DiffResponseMessage,
              detailed,
              fromSdk<ProviderProto>("@pulumi/pulumi/proto/provider_pb"),
            );
          }
          oldInputs.delete(urn);
          detailedDiffs.delete(urn);
        };
      },
    },
    () => main(provider, args),
  );
}
