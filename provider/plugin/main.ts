/**
 * The provider plugin's entry: `plugin/index.js` (the engine runs it through the Node.js language host, or
 * as `pulumi-resource-service` on PATH) calls `serve` with the engine's arguments.
 */
import { main } from "@pulumi/pulumi/provider";
import type { ResourceProps } from "../resource-lifecycle";
import { configure } from "./configuration";
import { engineAddressOf, engineWarnings } from "./engine-log";
import { serviceProvider } from "./provider";
import { withRequestHooks } from "./server-hooks";

/** Serves the plugin: prints its port on stdout and answers the engine until it is stopped. */
export async function serve(args: string[]): Promise<void> {
  const oldInputs = new Map<string, ResourceProps | undefined>();
  const provider = serviceProvider({
    oldInputs: (urn) => oldInputs.get(urn),
    warn: engineWarnings(engineAddressOf(args)),
  });
  await withRequestHooks(
    {
      configure,
      diffing(urn, inputs) {
        oldInputs.set(urn, inputs);
        return () => oldInputs.delete(urn);
      },
    },
    () => main(provider, args),
  );
}
