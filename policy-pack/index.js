// The policy pack that `pulumi preview --policy-pack node_modules/@service/pulumi/policy-pack` runs. The
// engine starts it in this folder through `@pulumi/pulumi/cmd/run-policy-pack`; `node .` here does the
// same. Both modules below resolve from the user's node_modules, where @service/pulumi and @pulumi/policy
// are installed side by side.
const { join } = require("node:path");
const { PolicyPack } = require("@pulumi/policy");
const { servicePolicies } = require("@service/pulumi/policy");

// PolicyPack takes its version from the package.json in the working directory. Point it at this
// package's own, so that the pack's version is the package's, whatever directory it was started in.
const startedIn = process.cwd();
process.chdir(join(__dirname, ".."));
try {
  new PolicyPack("service-pulumi", {
    description: "Policies for Service webhooks and domains declared with @service/pulumi.",
    policies: servicePolicies,
  });
} finally {
  process.chdir(startedIn);
}
