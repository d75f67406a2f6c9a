// A user's TypeScript program that reaches the provider plugin `service` by its type tokens, as a program
// in any language does through its generated SDK. Shaped by stack configuration:
// - host, filesDir (required), webhookSecret (secret, required);
// - webhooks: a list of { name, channel?, kind? } (default: one named "orders");
// - domain: true to verify host with the plugin's Domain component, its file written into filesDir.
import * as pulumi from "@pulumi/pulumi";

const config = new pulumi.Config();
const host = config.require("host");
const secretKey = config.requireSecret("webhookSecret");
const hooks = config.getObject<{ name: string; channel?: string; kind?: string }[]>("webhooks") ?? [
  { name: "orders" },
];

/** The plugin's Webhook (`service:index:Webhook`). */
class Webhook extends pulumi.CustomResource {
  declare readonly webhookUuid: pulumi.Output<string>;
  constructor(name: string, props: pulumi.Inputs, opts?: pulumi.CustomResourceOptions) {
    super("service:index:Webhook", name, { ...props, webhookUuid: undefined }, opts);
  }
}

/** The plugin's Domain component, which the plugin constructs (a remote component). */
class Domain extends pulumi.ComponentResource {
  declare readonly domainUuid: pulumi.Output<string>;
  constructor(name: string, props: pulumi.Inputs) {
    super("service:index:Domain", name, { ...props, domainUuid: undefined, status: undefined }, {}, true);
  }
}

const domain = config.getBoolean("domain")
  ? new Domain("hooks", { domainName: host, publishDirectory: config.require("filesDir"), timeout: 30 })
  : undefined;

const webhooks = hooks.map(
  (hook) =>
    new Webhook(
      hook.name,
      {
        endpoint: `https://${host}/service/events`,
        secretKey,
        channel: hook.channel ?? hook.name,
        filters: [{ key: "activity.name", value: hook.kind ?? "authentication" }],
      },
      { dependsOn: domain ? [domain] : [] },
    ),
);

export const webhookUuids = Object.fromEntries(hooks.map((hook, i) => [hook.name, webhooks[i]!.webhookUuid]));
export const domainUuid = domain?.domainUuid;
