// A user's TypeScript program that reaches the provider plugin `service` by its type tokens, as a program
// in any language does through its generated SDK. Shaped by stack configuration:
// - host, filesDir (required), webhookSecret (secret, required), secretVia (below);
// - webhooks: a list of { name, channel?, kind? } (default: one named "orders");
// - domain: true to verify host with the plugin's Domain component, its file written into filesDir;
// - adoptDomain: true to declare host's DomainVerification with adopt: true (host is registered already).
import * as pulumi from "@pulumi/pulumi";

const config = new pulumi.Config();
const host = config.require("host");
// secretVia (tests only): "secret" or "plain" take the secret as a program literal would give it.
const secretVia = config.get("secretVia") ?? "config";
const secretKey =
  secretVia === "config"
    ? config.requireSecret("webhookSecret")
    : secretVia === "secret"
      ? pulumi.secret(process.env.PLANTED_SECRET_KEY!)
      : process.env.PLANTED_SECRET_KEY!;
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

/** The plugin's DomainVerification (`service:index:DomainVerification`): the registered domain. */
class DomainVerification extends pulumi.CustomResource {
  constructor(name: string, props: pulumi.Inputs) {
    super("service:index:DomainVerification", name, { ...props, domainUuid: undefined });
  }
}

/** The domain resources the webhooks depend on: created after them, and deleted before them. */
const domains: pulumi.Resource[] = [];
if (config.getBoolean("adoptDomain")) {
  domains.push(new DomainVerification("hooks", { domainName: host, adopt: true }));
}

const domain = config.getBoolean("domain")
  ? new Domain("hooks", { domainName: host, publishDirectory: config.require("filesDir"), timeout: 30 })
  : undefined;
if (domain) domains.push(domain);

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
      { dependsOn: domains },
    ),
);

export const webhookUuids = Object.fromEntries(hooks.map((hook, i) => [hook.name, webhooks[i]!.webhookUuid]));
export const domainUuid = domain?.domainUuid;
