/**
 * A Service webhook and the domain it delivers to. The Domain proves control of the stack's `host`: it
 * writes the verification file into `verificationDir`, the folder the host serves as https://<host>/, and
 * finishes the registration once the file is served. The Webhook delivers authentications to the host,
 * signed with the stack's `webhookSecret`, on a channel named after the stack.
 *
 * A stack that shares its `host` with another stack of the same organization (which registered it) sets
 * `adoptDomain: true`: its Domain then verifies nothing, and its destroy leaves the domain registered.
 */
import * as pulumi from "@pulumi/pulumi";
import * as service from "@service/pulumi";

const config = new pulumi.Config();

const domainName = config.require("host");
const domain = new service.Domain(
  "hooks",
  config.getBoolean("adoptDomain")
    ? { domainName, adopt: true }
    : { domainName, publish: service.directoryPublisher(config.require("verificationDir")) },
);

const authentications = new service.Webhook(
  "authentications",
  {
    endpoint: pulumi.interpolate`https://${domain.domainName}/service/events`,
    secretKey: config.requireSecret("webhookSecret"),
    channel: pulumi.getStack(),
    filters: [{ key: "activity.name", value: "authentication" }],
  },
  // The service accepts an endpoint only on a registered domain.
  { dependsOn: [domain] },
);

export const domainUuid = domain.domainUuid;
export const webhookUuid = authentications.webhookUuid;
