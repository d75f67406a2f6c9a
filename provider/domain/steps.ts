/**
 * The domain steps' classes a TypeScript program declares (the Domain component declares them for it):
 * their inputs and outputs as the program sees them, registered with what resource.ts declares.
 */
import * as pulumi from "@pulumi/pulumi";
import type { AcceptLanguage, ConnectionInput } from "../../contract/common-types";
import { withSecretConnection } from "../resource-kit/options";
import { dynamicResourceArgs } from "../resource-kit/stored-provider";
import { domainRegistration, domainVerification } from "./declaration";
import { REGISTRATION_SECRETS, VERIFICATION_SECRETS } from "./resource";

/** The members every domain step takes; a change to them updates in place. */
interface DomainStepArgs {
  /** Credentials for this resource only, ahead of the stack config and the environment. Stored as a secret. */
  readonly connection?: pulumi.Input<ConnectionInput>;
  /** Display language of the service's answers; default from service:acceptLanguage, else "en". */
  readonly acceptLanguage?: pulumi.Input<AcceptLanguage>;
}

/** The inputs of a DomainRegistration. */
export interface DomainRegistrationArgs extends DomainStepArgs {
  /** A bare hostname, such as hooks.example.com. */
  readonly domainName: pulumi.Input<string>;
}

/** start_registration: the verifier, the URL to serve it at and the register token (secret). */
export class DomainRegistration extends pulumi.CustomResource {
  /** The hostname being verified. */
  declare readonly domainName: pulumi.Output<string>;
  /** `https://<domainName>/service_url_registration/<verifier>`: where the token must be served. */
  declare readonly url: pulumi.Output<string>;
  /** The registration's verifier, the last segment of `url`. */
  declare readonly verifier: pulumi.Output<string>;
  /** `service_url_registration/<verifier>`: the object key to publish the token at. */
  declare readonly key: pulumi.Output<string>;
  /** The exact body `url` must serve. A secret output. */
  declare readonly registerToken: pulumi.Output<string>;
  /** When the link expires (ISO date-time); refresh reports the registration gone after it. */
  declare readonly expiresAt: pulumi.Output<string>;

  /**
   * @param name - The resource's name: its identity in the stack.
   * @param args - The hostname to register.
   * @param opts - Resource options.
   */
  constructor(name: string, args: DomainRegistrationArgs, opts: pulumi.CustomResourceOptions = {}) {
    super(
      ...dynamicResourceArgs(
        domainRegistration,
        name,
        {
          ...withSecretConnection(args),
          url: undefined,
          verifier: undefined,
          key: undefined,
          registerToken: undefined,
          expiresAt: undefined,
        },
        opts,
        REGISTRATION_SECRETS,
      ),
    );
  }
}

/** The inputs of a DomainVerification: a registration's outputs, or `adopt: true`. */
export interface DomainVerificationArgs extends DomainStepArgs {
  /** A bare hostname, such as hooks.example.com. */
  readonly domainName: pulumi.Input<string>;
  /**
   * Share a domain the organization has already registered (by another stack or by hand) instead of
   * verifying it: the state records status "adopted", and deleting the Domain leaves it registered.
   */
  readonly adopt?: pulumi.Input<boolean>;
  /** The registration's verifier (required unless adopt). */
  readonly verifier?: pulumi.Input<string>;
  /** The registration's verification URL (required unless adopt). */
  readonly url?: pulumi.Input<string>;
  /** The registration's register token, a secret (required unless adopt). */
  readonly registerToken?: pulumi.Input<string>;
  /** The registration's expiry (required unless adopt). */
  readonly expiresAt?: pulumi.Input<string>;
  /** Seconds to wait for the file to be served (default 600); the link's expiry caps it. */
  readonly timeout?: pulumi.Input<number>;
}

/** finish_registration, once the file is served: stands for the registered domain (id: domain_uuid). */
export class DomainVerification extends pulumi.CustomResource {
  /** The service's domain_uuid, also the resource id. */
  declare readonly domainUuid: pulumi.Output<string>;
  /** The registered hostname. */
  declare readonly domainName: pulumi.Output<string>;
  /** "registered" by this resource, or "adopted". */
  declare readonly status: pulumi.Output<"registered" | "adopted">;
  /** When the service registered the domain (display form), when it says. */
  declare readonly createTime: pulumi.Output<string | undefined>;

  /**
   * @param name - The resource's name: its identity in the stack.
   * @param args - The registration to finish, or `adopt: true`.
   * @param opts - Resource options; give it `dependsOn` on the resource that publishes the file.
   */
  constructor(name: string, args: DomainVerificationArgs, opts: pulumi.CustomResourceOptions = {}) {
    super(
      ...dynamicResourceArgs(
        domainVerification,
        name,
        {
          ...withSecretConnection(args),
          ...(args.registerToken === undefined ? {} : { registerToken: pulumi.secret(args.registerToken) }),
          domainUuid: undefined,
          status: undefined,
          createTime: undefined,
        },
        opts,
        VERIFICATION_SECRETS,
      ),
    );
  }
}
