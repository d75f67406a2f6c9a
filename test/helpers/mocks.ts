import type * as PulumiModule from "@pulumi/pulumi";
import type { MockResourceArgs } from "@pulumi/pulumi/runtime";
import type * as ServiceModule from "../../provider/index";
import { webhookArgs } from "./fixtures";

/** The marker `setMocks` puts around a secret input. */
const SECRET_SIG = "4dabf18193072939515e22adb298388d";
const SECRET_VALUE = "1b47061264138c4ac30d75fd1eb44270";

export function isSecret(value: unknown): boolean {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as Record<string, unknown>)[SECRET_SIG] === SECRET_VALUE
  );
}

export function reveal(value: unknown): unknown {
  return isSecret(value) ? (value as { value: unknown }).value : value;
}

/**
 * Runs programs under Pulumi's mocks against the built package, loaded by its own name as a user's
 * program would load it, so that the real closure serializer sees the real class.
 */
/** What this package's dynamic resources output, as their create would. */
export function serviceOutputs(args: MockResourceArgs): Record<string, unknown> {
  const { type, inputs } = args;
  if (type.endsWith(":DomainRegistration")) {
    return {
      verifier: "v123",
      key: "service_url_registration/v123",
      registerToken: "token-abc",
      url: `https://${inputs.domainName}/service_url_registration/v123`,
      expiresAt: "2030-01-01T00:00:00Z",
    };
  }
  if (type.endsWith(":DomainVerification"))
    return { domainUuid: "uuid-1", status: inputs.adopt ? "adopted" : "registered" };
  return {};
}

export function mockedPulumi(
  options: {
    preview?: boolean;
    config?: Record<string, string>;
    project?: string;
    /** Outputs to add to a resource's inputs, as the real create would. */
    outputs?: (args: MockResourceArgs) => Record<string, unknown>;
  } = {},
) {
  const pulumi = require("@pulumi/pulumi") as typeof PulumiModule;
  const registered: MockResourceArgs[] = [];
  if (options.config) {
    for (const [key, value] of Object.entries(options.config)) pulumi.runtime.setConfig(key, value);
  }
  pulumi.runtime.setMocks(
    {
      newResource: (args) => {
        registered.push(args);
        return {
          id: args.inputs.webhookUuid ?? `${args.name}-id`,
          state: { ...args.inputs, ...options.outputs?.(args) },
        };
      },
      call: (args) => args.inputs,
    },
    options.project ?? "quickstart",
    "dev",
    options.preview ?? false,
  );
  const service = require("@service/pulumi") as typeof ServiceModule;
  return { pulumi, service, registered };
}

/** The provider text that `pulumi up` stores for a Webhook: serialized by the real closure serializer. */
export async function webhookProviderText(): Promise<string> {
  const { pulumi, service, registered } = mockedPulumi();
  const hook = new service.Webhook("orders", webhookArgs());
  await settled(pulumi, [hook.urn]);
  return registered.find((r) => r.type.endsWith(":Webhook"))!.inputs.__provider as string;
}

/** Resolves once every given output has a value, i.e. once its resources have been registered. */
export function settled(
  pulumi: typeof PulumiModule,
  outputs: PulumiModule.Output<unknown>[],
): Promise<unknown[]> {
  return new Promise((resolve) => pulumi.all(outputs).apply((values) => resolve(values)));
}
