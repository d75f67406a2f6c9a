// A platform team's program for a fleet of organizations, each with its own API token: per organization a
// Domain and two Webhooks, each with its own `connection`. The second organization's Domain, and one
// Webhook of each, are the provider plugin's resources (reached by type token, as a program in another
// language reaches them); the rest are the dynamic resources. The shape of `connection` varies from one
// organization to the next, and so do the Webhooks' inputs, in ways that mean the same thing: member
// order, a base URL spelled out, with a trailing slash, or left out (the stack's), a secret token, a
// secret connection or a plain token, defaults given or left out, filters in another order and form.
// Shaped by stack configuration:
// - fleet: a list of { organization, host }; each organization's token is the secret
//   `token-<organization>`, but every third one's, which the program takes as plain text from the
//   environment (FLEET_TOKEN_<ORGANIZATION>);
// - sandboxUrl, filesDir (required); webhookSecret (secret, required).
const pulumi = require("@pulumi/pulumi");
const service = require("@service/pulumi");

const config = new pulumi.Config();
const fleet = config.requireObject("fleet");
const baseUrl = config.require("sandboxUrl");
const filesDir = config.require("filesDir");
const secretKey = config.requireSecret("webhookSecret");

/** The plugin's Webhook (`service:index:Webhook`). */
class PluginWebhook extends pulumi.CustomResource {
  constructor(name, props, opts) {
    super("service:index:Webhook", name, { ...props, webhookUuid: undefined }, opts);
  }
}

/** The plugin's Domain component, which the plugin constructs. */
class PluginDomain extends pulumi.ComponentResource {
  constructor(name, props) {
    super("service:index:Domain", name, { ...props, domainUuid: undefined, status: undefined }, {}, true);
  }
}

/** Where the program finds an organization's token as plain text: FLEET_TOKEN_<ORGANIZATION>. */
const plainTokenVariable = (organization) => `FLEET_TOKEN_${organization.toUpperCase().replace(/-/g, "_")}`;

/** One organization's connection, in one of three shapes that mean the same credentials. */
function connectionOf(index, organization) {
  const key = `token-${organization}`;
  // A secret token, the members in the documented order.
  if (index % 3 === 0) return { token: config.requireSecret(key), baseUrl };
  // A secret connection, the members in the other order, the base URL with a trailing slash.
  if (index % 3 === 1) return pulumi.secret({ baseUrl: `${baseUrl}/`, token: config.requireSecret(key) });
  // A plain token (from the environment: a plain config value would be stored as such with the stack's
  // configuration), the base URL left out: the stack's service:baseUrl.
  return { token: process.env[plainTokenVariable(organization)] };
}

exports.webhookUuids = fleet.flatMap((org, index) => {
  const connection = connectionOf(index, org.organization);
  const domain =
    index % 3 === 1
      ? new PluginDomain(`${org.organization}-domain`, {
          domainName: org.host,
          publishDirectory: filesDir,
          timeout: 30,
          connection,
        })
      : new service.Domain(`${org.organization}-domain`, {
          domainName: org.host,
          publish: service.directoryPublisher(filesDir),
          timeout: 30,
          connection,
        });
  const endpoint = `https://${org.host}/service/events`;
  const sessions = new service.Webhook(
    `${org.organization}-sessions`,
    {
      endpoint,
      secretKey,
      connection,
      apiVersion: "2.0",
      acceptLanguage: index % 2 === 0 ? "en" : undefined,
      filters: [
        { key: "activity.form_factor", values: ["microscopic", "lightbox"] },
        { key: "activity.name", values: ["authentication"] },
      ],
    },
    { dependsOn: [domain] },
  );
  const fingerprints = new PluginWebhook(
    `${org.organization}-fingerprints`,
    {
      endpoint,
      secretKey,
      connection,
      channel: "default",
      filters: [{ key: "activity.name", value: "fingerprint" }],
    },
    { dependsOn: [domain] },
  );
  return [sessions.webhookUuid, fingerprints.webhookUuid];
});
