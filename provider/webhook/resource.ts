import * as pulumi from "@pulumi/pulumi";
import type { ConnectionInput } from "../api/shapes";
import type { ApiVersion } from "../api/versions";
import { withSecretConnection, withSecretOutputs } from "../resource-options";
import { RuntimeProvider } from "../runtime-provider";
import { WEBHOOK_SECRET_OUTPUTS } from "./schema";

export interface WebhookFilter {
  readonly key: "activity.name" | "activity.form_factor" | "owner.user.username" | (string & {});
  readonly value?: string;
  readonly values?: string[];
}

export interface WebhookArgs {
  /** HTTPS URL on a domain registered to the organization (no query or fragment on API 2.0). */
  readonly endpoint: pulumi.Input<string>;
  /** HMAC key for Service-Signature: 16 to 256 characters on 2.0, at least 20 on 1.4. Stored only as a salted hash. */
  readonly secretKey: pulumi.Input<string>;
  /** Must include activity.name (authentication or fingerprint); order and value/values form do not matter. */
  readonly filters: pulumi.Input<pulumi.Input<WebhookFilter>[]>;
  /** Echoed on every delivery; default "default". */
  readonly channel?: pulumi.Input<string>;
  /** "2.0" (default) or "1.4". */
  readonly apiVersion?: pulumi.Input<ApiVersion>;
  /** Display language of the service's answers; default from service:acceptLanguage, else "en". */
  readonly acceptLanguage?: pulumi.Input<"en" | "ja">;
  /** Credentials for this resource only, ahead of the stack config and the environment. Stored as a secret. */
  readonly connection?: pulumi.Input<ConnectionInput>;
  /** Take over this existing active webhook instead of creating one (stands in for `pulumi import`). */
  readonly adoptWebhookUuid?: pulumi.Input<string>;
}

/**
 * A Service webhook. Every change to endpoint, filters, channel, secret or apiVersion replaces it;
 * deleting it deactivates it.
 */
export class Webhook extends pulumi.dynamic.Resource {
  declare readonly webhookUuid: pulumi.Output<string>;
  declare readonly endpoint: pulumi.Output<string>;
  declare readonly channel: pulumi.Output<string>;
  declare readonly filters: pulumi.Output<{ key: string; value?: string; values?: string[] }[]>;
  declare readonly owner: pulumi.Output<{ organization: string; username: string }>;
  declare readonly createTime: pulumi.Output<string>;
  declare readonly apiVersion: pulumi.Output<ApiVersion>;

  constructor(name: string, args: WebhookArgs, opts: pulumi.CustomResourceOptions = {}) {
    super(
      webhookProvider,
      name,
      {
        ...withSecretConnection(args),
        secretKey: pulumi.secret(args.secretKey),
        webhookUuid: undefined,
        owner: undefined,
        createTime: undefined,
        secretKeyHash: undefined,
      },
      withSecretOutputs(opts, WEBHOOK_SECRET_OUTPUTS),
      "service",
      "Webhook",
    );
  }
}

const webhookProvider = new RuntimeProvider("webhook");
