// A user's program in plain JavaScript, shaped by stack configuration so that one program serves every
// end-to-end scenario:
// - host (required), webhookSecret (secret, required), secretVia (below);
// - webhooks: a list of { name, channel?, kind?, formFactors?, adopt?, deleteBeforeReplace? } (default:
//   one named "orders");
// - domain: true to verify host with a Domain whose file is written into filesDir;
// - adoptDomain: true to give that Domain adopt: true instead (host is registered already, by another
//   stack or by hand);
// - retainDomain: true to give the Domain retainOnDelete.
const pulumi = require("@pulumi/pulumi");
const service = require("@service/pulumi");

const config = new pulumi.Config();
const host = config.require("host");
// secretVia (tests only): "secret" or "plain" take the secret as a program literal would give it.
const secretVia = config.get("secretVia") ?? "config";
const secretKey =
  secretVia === "config"
    ? config.requireSecret("webhookSecret")
    : secretVia === "secret"
      ? pulumi.secret(process.env.PLANTED_SECRET_KEY)
      : process.env.PLANTED_SECRET_KEY;
const hooks = config.getObject("webhooks") ?? [{ name: "orders" }];

const domain = config.getBoolean("domain")
  ? new service.Domain(
      "hooks",
      config.getBoolean("adoptDomain")
        ? { domainName: host, adopt: true }
        : { domainName: host, publish: service.directoryPublisher(config.require("filesDir")), timeout: 30 },
      { retainOnDelete: config.getBoolean("retainDomain") ?? false },
    )
  : undefined;

const webhooks = hooks.map(
  (hook) =>
    new service.Webhook(
      hook.name,
      {
        endpoint: `https://${host}/service/events`,
        secretKey,
        channel: hook.channel ?? hook.name,
        filters: [
          { key: "activity.name", value: hook.kind ?? "authentication" },
          ...(hook.formFactors ? [{ key: "activity.form_factor", values: hook.formFactors }] : []),
        ],
        ...(hook.adopt ? { adoptWebhookUuid: hook.adopt } : {}),
      },
      { dependsOn: domain ? [domain] : [], deleteBeforeReplace: hook.deleteBeforeReplace },
    ),
);

exports.webhookUuids = Object.fromEntries(hooks.map((hook, i) => [hook.name, webhooks[i].webhookUuid]));
exports.domainUuid = domain?.domainUuid;
