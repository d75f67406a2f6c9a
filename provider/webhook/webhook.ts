/**
 * The Webhook class a TypeScript program declares: its inputs and outputs as the program sees them (their
 * TSDoc is the schema's documentation), registered with what resource.ts declares.
 */
import * as pulumi from "@pulumi/pulumi";
import type { AcceptLanguage, ConnectionInput } from "../../contract/common-types";
import type { ApiVersion } from "../../contract/versions";
import { withSecretConnection } from "../resource-kit/options";
import { dynamicResourceArgs } from "../resource-kit/stored-provider";
import { webhook } from "./declaration";
import { QUOTA_INPUT, quotaInput } from "./quota";
import { OUTPUTS, WEBHOOK_SECRETS } from "./resource";

/** One filter of a Webhook: a key and one value or several. */
export interface WebhookFilter {
  /** `activity.name` (required once), `activity.form_factor` or `owner.user.username`. */
  readonly key: "activity.name" | "activity.form_factor" | "owner.user.username" | (string & {});
  /** One value; the same as a one-element `values`. */
  readonly value?: string;
  /** Several values: a session matching any of them is delivered. */
  readonly values?: string[];
}

/** The inputs of a Webhook. Every one of them but `acceptLanguage` and `connection` replaces the webhook when it changes. */
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
  readonly acceptLanguage?: pulumi.Input<AcceptLanguage>;
  /** Credentials for this resource only, ahead of the stack config and the environment. Stored as a secret. */
  readonly connection?: pulumi.Input<ConnectionInput>;
  /** Take over this existing active webhook instead of creating one (stands in for `pulumi import`). */
  readonly adoptWebhookUuid?: pulumi.Input<string>;
}

/**
 * A Service webhook. Every change to endpoint, filters, channel, secret or apiVersion replaces it;
 * deleting it deactivates it.
 */
export class Webhook extends pulumi.CustomResource {
  /** The service's webhook_uuid (also the resource id, except while a create's outcome is still unknown). */
  declare readonly webhookUuid: pulumi.Output<string>;
  /** The HTTPS URL deliveries go to, as the service recorded it. */
  declare readonly endpoint: pulumi.Output<string>;
  /** Echoed on every delivery. */
  declare readonly channel: pulumi.Output<string>;
  /** The filters in canonical order: `value` for one value, `values` for several. */
  declare readonly filters: pulumi.Output<
    {
      /** The filter's key, such as `activity.name`. */
      key: string;
      /** The one value, when the filter has one. */
      value?: string;
      /** The values, sorted, when the filter has several. */
      values?: string[];
    }[]
  >;
  /** The organization and user that own the webhook. */
  declare readonly owner: pulumi.Output<{
    /** The organization's name. */
    organization: string;
    /** The user who created the webhook; "" when the service did not say. */
    username: string;
  }>;
  /** When the service created it (display form, UTC). */
  declare readonly createTime: pulumi.Output<string>;
  /** The API generation it was created with. */
  declare readonly apiVersion: pulumi.Output<ApiVersion>;

  /**
   * @param name - The resource's name: its identity in the stack. Renaming it replaces the webhook
   *   unless you give `aliases`.
   * @param args - The webhook's configuration.
   * @param opts - Resource options. `deleteBeforeReplace: true` frees the quota slot before a replacement.
   */
  constructor(name: string, args: WebhookArgs, opts: pulumi.CustomResourceOptions = {}) {
    super(
      ...dynamicResourceArgs(
        webhook,
        name,
        {
          // Declared outputs: each is an output only if its key is here, given or not.
          ...Object.fromEntries(OUTPUTS.map((key) => [key, undefined])),
          ...withSecretConnection(args),
          secretKey: pulumi.secret(args.secretKey),
          // Counted with the program's other Webhooks before any is registered (quota.ts).
          [QUOTA_INPUT]: quotaInput(name, args.connection, opts),
        },
        opts,
        WEBHOOK_SECRETS,
      ),
    );
  }
}
