import * as pulumi from "@pulumi/pulumi";
import { dynamicResourceArgs } from "../resource-kit/stored-provider";
import { verificationFile } from "./declaration";
import type { Publisher } from "./publisher";

/** The inputs of a VerificationFile. */
export interface VerificationFileArgs {
  /** The folder that something serves as https://<host>/. */
  readonly directory: pulumi.Input<string>;
  /** The path inside it: the registration's `key`. Must stay inside `directory`. */
  readonly key: pulumi.Input<string>;
  /** The register token; stored only as a salted hash. */
  readonly content: pulumi.Input<string>;
}

/** A file in a local folder, for hosts that serve a folder (the quickstart's sandbox origin). */
export class VerificationFile extends pulumi.CustomResource {
  /** The absolute path of the written file. */
  declare readonly path: pulumi.Output<string>;

  /**
   * @param name - The resource's name: its identity in the stack.
   * @param args - Where to write what.
   * @param opts - Resource options.
   */
  constructor(name: string, args: VerificationFileArgs, opts: pulumi.CustomResourceOptions = {}) {
    super(
      ...dynamicResourceArgs(
        verificationFile,
        name,
        {
          ...args,
          content: pulumi.secret(args.content),
          path: undefined,
        },
        opts,
      ),
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
