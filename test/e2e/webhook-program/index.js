// A user's program in plain JavaScript, so that no TypeScript toolchain is needed under the CLI.
const pulumi = require("@pulumi/pulumi");
const service = require("@service/pulumi");

const config = new pulumi.Config();
const formFactors = config.get("formFactors") ?? "lightbox";

const hook = new service.Webhook("orders", {
  endpoint: `https://${config.require("host")}/service/events`,
  secretKey: config.requireSecret("webhookSecret"),
  channel: "orders",
  filters: [
    { key: "activity.name", value: "authentication" },
    { key: "activity.form_factor", values: formFactors.split(",") },
  ],
});

exports.webhookUuid = hook.webhookUuid;
