/**
 * The runtime entry point that serialized dynamic providers require by name
 * (`require("@service/pulumi/runtime")`). The provider text stored in a stack's state calls into it, so
 * this is a contract: its exports and their signatures stay, and every function keeps accepting state
 * written by earlier versions of the package.
 */
import * as domainRegistration from "../domain/registration";
import * as domainVerification from "../domain/verification";
import * as verificationFile from "../publishers/file-lifecycle";
import * as webhook from "../webhook/lifecycle";
import { type ConfigSource, configureFromStack } from "./credentials";

export function configure(config: ConfigSource): void {
  configureFromStack(config);
}

export { domainRegistration, domainVerification, verificationFile, webhook };
