import * as pulumi from "@pulumi/pulumi";
import { withSecretOutputs } from "../resource-options";
import { RuntimeProvider } from "../runtime-provider";
import type { Publisher } from "./publisher";

export interface VerificationFileArgs {
  readonly directory: pulumi.Input<string>;
  readonly key: pulumi.Input<string>;
  readonly content: pulumi.Input<string>;
}

/** A file in a local folder, for hosts that serve a folder (the quickstart's sandbox origin). */
export class VerificationFile extends pulumi.dynamic.Resource {
  declare readonly path: pulumi.Output<string>;

  constructor(name: string, args: VerificationFileArgs, opts: pulumi.CustomResourceOptions = {}) {
    super(
      fileProvider,
      name,
      { ...args, content: pulumi.secret(args.content), path: undefined, contentHash: undefined },
      withSecretOutputs(opts, ["contentHash"]),
      "service",
      "VerificationFile",
    );
  }
}

/** Publishes the verification file into `directory`, which something serves as https://<host>/. */
export function directoryPublisher(directory: pulumi.Input<string>): Publisher {
  return (file, opts) =>
    new VerificationFile(
      opts.name,
      { directory, key: file.key, content: file.content },
      opts.resourceOptions,
    );
}

const fileProvider = new RuntimeProvider("verificationFile");
