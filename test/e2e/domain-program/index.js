// A user's program in plain JavaScript, so that no TypeScript toolchain is needed under the CLI.
const pulumi = require("@pulumi/pulumi");
const service = require("@service/pulumi");

const config = new pulumi.Config();
const domain = new service.Domain("hooks", {
  domainName: config.require("host"),
  publish: service.directoryPublisher(config.require("filesDir")),
  timeout: 30,
});

exports.domainUuid = domain.domainUuid;
exports.status = domain.status;
