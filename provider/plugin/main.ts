/**
 * The provider plugin's entry: `plugin/index.js` (the engine runs it through the Node.js language host, or
 * as `pulumi-resource-service` on PATH) calls `serve` with the engine's arguments.
 */
import { main } from "@pulumi/pulumi/provider";
import { processContext } from "../context/process";
import { findProgramLanguage, setProgramLanguage } from "../program-language";
import type { ResourceProps } from "../resource-lifecycle";
import { configure } from "./configuration";
import { ConstructGuard } from "./construct-guard";
import { serviceProvider } from "./provider";
import { withRequestHooks } from "./server-hooks";

/** Serves the plugin: prints its port on stdout and answers the engine until it is stopped. */
export async function serve(args: string[]): Promise<void> {
  // The engine runs a provider plugin in the program's folder, whichever way it starts it: the project's
  // Pulumi.yaml there (or above) says the language that advice should spell options and properties in.
  setProgramLanguage(findProgramLanguage(process.cwd()));
  const oldInputs = new Map<string, ResourceProps | undefined>();
  const guard = new ConstructGuard(processContext().clock);
  const provider = serviceProvider({ oldInputs: (urn) => oldInputs.get(urn) }, guard);
  await withRequestHooks(
    {
      configure,
      diffing(urn, inputs) {
        oldInputs.set(urn, inputs);
        return () => oldInputs.delete(urn);
      },
      constructing: () => guard.constructing(),
    },
    () => main(provider, args),
  );
}
