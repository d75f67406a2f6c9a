import * as pulumi from "@pulumi/pulumi";
import type { ConnectionInput } from "../api/shapes";
import { withSecretConnection, withSecretOutputs } from "../resource-options";
import { RuntimeProvider } from "../runtime-provider";
import { REGISTRATION_SECRET_OUTPUTS, VERIFICATION_SECRET_OUTPUTS } from "./schema";

interface Common {
  /** Credentials for this resource only, ahead of the stack config and the environment. Stored as a secret. */
  readonly connection?: pulumi.Input<ConnectionInput>;
  readonly acceptLanguage?: pulumi.Input<"en" | "ja">;
}

export interface DomainRegistrationArgs extends Common {
  /** A bare hostname, such as hooks.example.com. */
  readonly domainName: pulumi.Input<string>;
}

/** start_registration: the verifier, the URL to serve it at and the register token (secret). */
export class DomainRegistration extends pulumi.dynamic.Resource {
  declare readonly domainName: pulumi.Output<string>;
  declare readonly url: pulumi.Output<string>;
  declare readonly verifier: pulumi.Output<string>;
  /** `service_url_registration/<verifier>`: the object key to publish the token at. */
  declare readonly key: pulumi.Output<string>;
  declare readonly registerToken: pulumi.Output<string>;
  declare readonly expiresAt: pulumi.Output<string>;

  constructor(name: string, args: DomainRegistrationArgs, opts: pulumi.CustomResourceOptions = {}) {
    super(
      registrationProvider,
      name,
      {
        ...withSecretConnection(args),
        url: undefined,
        verifier: undefined,
        key: undefined,
        registerToken: undefined,
        expiresAt: undefined,
      },
      withSecretOutputs(opts, REGISTRATION_SECRET_OUTPUTS),
      "service",
      "DomainRegistration",
    );
  }
}

export interface DomainVerificationArgs extends Common {
  readonly domainName: pulumi.Input<string>;
  /** Take over an already registered domain instead of verifying it. */
  readonly adopt?: pulumi.Input<boolean>;
  readonly verifier?: pulumi.Input<string>;
  readonly url?: pulumi.Input<string>;
  readonly registerToken?: pulumi.Input<string>;
  readonly expiresAt?: pulumi.Input<string>;
  /** Seconds to wait for the file to be served (default 600); the link's expiry caps it. */
  readonly timeout?: pulumi.Input<number>;
}

/** finish_registration, once the file is served: stands for the registered domain (id: domain_uuid). */
export class DomainVerification extends pulumi.dynamic.Resource {
  declare readonly domainUuid: pulumi.Output<string>;
  declare readonly domainName: pulumi.Output<string>;
  declare readonly status: pulumi.Output<"registered" | "adopted">;
  declare readonly createTime: pulumi.Output<string | undefined>;

  constructor(name: string, args: DomainVerificationArgs, opts: pulumi.CustomResourceOptions = {}) {
    super(
      verificationProvider,
      name,
      {
        ...withSecretConnection(args),
        registerToken: args.registerToken === undefined ? undefined : pulumi.secret(args.registerToken),
        domainUuid: undefined,
        status: undefined,
        createTime: undefined,
      },
      withSecretOutputs(opts, VERIFICATION_SECRET_OUTPUTS),
      "service",
      "DomainVerification",
    );
  }
}

const registrationProvider = new RuntimeProvider("domainRegistration");
const verificationProvider = new RuntimeProvider("domainVerification");
