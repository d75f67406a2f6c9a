/**
 * The provider plugin's entry: `plugin/index.js` (the engine runs it through the Node.js language host, or
 * as `pulumi-resource-service` on PATH) calls `serve` with the engine's arguments.
 */
import { main } from "@pulumi/pulumi/provider";
import { findProgramLanguage, setProgramLanguage } from "../context/program-language";
import type { DetailedDiff } from "../lifecycle/detailed-diff";
import type { ResourceProps } from "../lifecycle/methods";
import { configureWith } from "./configuration";
import { type DiffResponseMessage, type ProviderProto, writeDetailedDiff } from "./diff-response";
import { engineAddressOf, engineWarnings } from "./engine-log";
import { serviceProvider } from "./provider";
import { fromSdk, withRequestHooks } from "./server-hooks";

/** How often the plugin looks whether the process that started it is still there. */
const PARENT_POLL_MS = 500;

/**
 * Exits once the process that started the plugin (the engine, or the language host that ran it) is gone,
 * which shows as a change of parent pid: the plugin is reparented to init, or to a subreaper. The engine
 * stops the plugins it is done with; this ends one whose engine or language host was killed and could not.
 */
function exitWithParent(): void {
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid !== parent) process.exit(0);
  }, PARENT_POLL_MS);
  // The gRPC server keeps the plugin alive; the watch alone must not.
  watch.unref();
}

/** Serves the plugin: prints its port on stdout and answers the engine until it is stopped. */
export async function serve(args: string[]): Promise<void> {
  exitWithParent();
  // The engine runs a provider plugin in the program's folder, whichever way it starts it: the project's
  // Pulumi.yaml there (or above) says the language that advice should spell options and properties in.
  setProgramLanguage(findProgramLanguage(process.cwd()));
  const oldInputs = new Map<string, ResourceProps | undefined>();
  const detailedDiffs = new Map<string, DetailedDiff>();
  const warn = engineWarnings(engineAddressOf(args));
  const provider = serviceProvider({
    oldInputs: (urn) => oldInputs.get(urn),
    showDiff: (urn, detailed) => detailedDiffs.set(urn, detailed),
    warn,
  });
  await withRequestHooks(
    {
      configure: configureWith(warn),
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
