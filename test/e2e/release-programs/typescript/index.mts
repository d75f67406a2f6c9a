/**
 * A TypeScript team's program on @service/pulumi installed from an npm registry: a verified Domain and two
 * webhooks that deliver to it (test/e2e/release.test.ts). Node strips the types: no build step.
 */
import * as pulumi from "@pulumi/pulumi";
import * as service from "@service/pulumi";

const config = new pulumi.Config();
const host = config.require("host");
const secretKey = config.requireSecret("webhookSecret");

const domain = new service.Domain("hooks", {
  domainName: host,
  publish: service.directoryPublisher(config.require("filesDir")),
  timeout: 30,
});

const webhooks = ["authentication", "fingerprint"].map(
  (kind) =>
    new service.Webhook(
      `${kind}s`,
      {
        endpoint: `https://${host}/service/events`,
        secretKey,
        // A stack setting changes it, to replace the webhook.
        channel: config.get(`${kind}Channel`) ?? `${kind}s`,
        filters: [{ key: "activity.name", value: kind }],
      },
      { dependsOn: [domain] },
    ),
);

export const domainUuid = domain.domainUuid;
export const webhookUuids = webhooks.map((webhook) => webhook.webhookUuid);
