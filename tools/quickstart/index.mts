/**
 * The quickstart program (Pulumi.yaml at the repository root). A Domain whose verification file is
 * written into a folder the sandbox serves, and two webhooks on it: one for authentications, one for
 * fingerprints.
 *
 * `pulumi up` runs this file as it is: Node strips the types, with no build step. So it keeps to syntax that
 * only erases (no enum, namespace or constructor parameter properties); `npm run typecheck` checks the types.
 */
import { resolve } from "node:path";
import * as pulumi from "@pulumi/pulumi";
import * as service from "@service/pulumi";

const config = new pulumi.Config();
const hostname = config.require("hostname");
// Relative to the project's root (where Pulumi.yaml is), where `npm run sandbox` serves it from: the engine
// runs this program in its own folder (tools/quickstart/), so a path relative to the working directory
// would miss.
const filesDir = resolve(
  pulumi.getRootDirectory(),
  config.get("filesDir") ?? "tools/quickstart/.well-known-files",
);
const webhookSecret = config.requireSecret("webhookSecret");

const domain = new service.Domain("hooks", {
  domainName: hostname,
  publish: service.directoryPublisher(filesDir),
  timeout: 60,
});

const endpoint = pulumi.interpolate`https://${domain.domainName}/service/events`;

const authentications = new service.Webhook(
  "authentications",
  {
    endpoint,
    secretKey: webhookSecret,
    channel: "authentications",
    filters: [{ key: "activity.name", value: "authentication" }],
  },
  { dependsOn: [domain] },
);

const fingerprints = new service.Webhook(
  "fingerprints",
  {
    endpoint,
    secretKey: webhookSecret,
    channel: "fingerprints",
    filters: [{ key: "activity.name", value: "fingerprint" }],
  },
  { dependsOn: [domain] },
);

export const domainUuid = domain.domainUuid;
export const verificationUrl = domain.url;
export const authenticationWebhook = authentications.webhookUuid;
export const fingerprintWebhook = fingerprints.webhookUuid;
