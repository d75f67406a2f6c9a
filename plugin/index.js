#!/usr/bin/env node
// The provider plugin `service`: Webhook, DomainRegistration, DomainVerification and VerificationFile as
// `service:index:*` resources, and the Domain component, for programs in any language. The engine runs this
// file through `pulumi-resource-service` beside it (for a project that lists this folder under
// `plugins.providers`), through the Node.js language host (PulumiPlugin.yaml, where that launcher cannot be
// run), or directly as `pulumi-resource-service` from node_modules/.bin on PATH. Each way the engine's
// arguments follow the script's.
"use strict";

require("../dist/provider/plugin/main.js")
  .serve(process.argv.slice(2))
  .catch((error) => {
    process.stderr.write(
      `The service provider plugin could not start: ${error?.message ?? error}. ` +
        "It needs Node.js 22.19 or later and @pulumi/pulumi installed next to @service/pulumi: run `npm install @service/pulumi @pulumi/pulumi` in the project, then the Pulumi command again.\n",
    );
    process.exit(1);
  });
