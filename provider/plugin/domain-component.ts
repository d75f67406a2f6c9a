/**
 * The Domain component as the provider plugin constructs it for a program in any language
 * (`service:index:Domain`, Construct): the same component as a TypeScript program's Domain (buildDomain),
 * made of the plugin's own resources, with the verification file written into a folder instead of a
 * publisher function, which no other language can pass.
 */
import * as pulumi from "@pulumi/pulumi";
import type { ConstructResult } from "@pulumi/pulumi/provider";
import { z } from "zod";
import { spellProperty } from "../context/program-language";
import { buildDomain, type DomainArgs, type DomainSteps } from "../domain/component";
import { DOMAIN_COMPONENT_TYPE, domainRegistration, domainVerification } from "../domain/declaration";
import { RegistrationOutputs, VerificationInputs, VerificationOutputs } from "../domain/resource";
import { verificationFile } from "../publishers/declaration";
import type { Publisher } from "../publishers/publisher";
import { pluginResource } from "./plugin-resources";

/** The inputs of the plugin's Domain: a Domain's, with a folder to publish into instead of a publisher. */
interface DomainComponentArgs extends Omit<DomainArgs, "publish" | "adopt"> {
  /**
   * The folder that something serves as https://<domainName>/: the verification file is written into it
   * (required unless adopt is true).
   */
  readonly publishDirectory?: pulumi.Input<string>;
  /**
   * Share a domain the organization has already registered (by another stack or by hand): nothing is
   * published or finished, the state records status "adopted", and deleting the Domain leaves it registered.
   */
  readonly adopt?: boolean;
}

/** What the plugin's Domain accepts: its steps' members, and the folder to publish into. */
export const DomainComponentInputs = VerificationInputs.pick({
  domainName: true,
  timeout: true,
  adopt: true,
  connection: true,
  acceptLanguage: true,
}).extend({ publishDirectory: z.string().min(1, "must not be empty").optional() });

/** What the plugin's Domain outputs: its verification's, and the registration's URL. */
export const DomainComponentOutputs = VerificationOutputs.pick({
  domainName: true,
  domainUuid: true,
  status: true,
}).extend({ url: z.string().optional() });

/** The plugin's resources for a Domain's steps. */
const PLUGIN_STEPS: DomainSteps<ReturnType<typeof registrationStep>, ReturnType<typeof verificationStep>> = {
  registration: registrationStep,
  verification: verificationStep,
};

function registrationStep(name: string, args: pulumi.Inputs, opts: pulumi.CustomResourceOptions) {
  const outputs = Object.keys(RegistrationOutputs.shape) as (keyof RegistrationOutputs)[];
  return pluginResource(domainRegistration, name, args, outputs, opts);
}

function verificationStep(name: string, args: pulumi.Inputs, opts: pulumi.CustomResourceOptions) {
  const outputs = Object.keys(VerificationOutputs.shape) as (keyof VerificationOutputs)[];
  return pluginResource(domainVerification, name, args, outputs, opts);
}

/** Writes the verification file into `directory` as the plugin's VerificationFile resource. */
function directoryPublisher(directory: pulumi.Input<string>): Publisher {
  return (file, opts) =>
    pluginResource(
      verificationFile,
      opts.name,
      { directory, key: file.key, content: file.content },
      [],
      opts.resourceOptions,
    );
}

/** The component the plugin registers for a program's `service:index:Domain`. */
class DomainComponent extends pulumi.ComponentResource {
  /** The outputs the program reads. */
  readonly outputs: ReturnType<typeof buildDomain>["outputs"];

  constructor(name: string, args: DomainComponentArgs, opts: pulumi.ComponentResourceOptions) {
    super(DOMAIN_COMPONENT_TYPE, name, { domainName: args.domainName }, opts);
    const adopt = args.adopt === true;
    if (!adopt && args.publishDirectory === undefined) {
      throw new pulumi.InputPropertyError({
        propertyPath: "publishDirectory",
        reason: `is required unless ${spellProperty("adopt")} is true: give the folder that https://<domainName>/ is served from, or declare DomainRegistration and DomainVerification yourself with your own resource publishing the file between them`,
      });
    }
    const publish =
      args.publishDirectory === undefined ? undefined : directoryPublisher(args.publishDirectory);
    this.outputs = buildDomain(this, name, { ...args, adopt, publish }, opts, PLUGIN_STEPS).outputs;
    this.registerOutputs(this.outputs);
  }
}

/** Construct for `service:index:Domain`: the component's URN and outputs. */
export function constructDomain(
  name: string,
  inputs: pulumi.Inputs,
  opts: pulumi.ComponentResourceOptions,
): ConstructResult {
  const domain = new DomainComponent(name, inputs as DomainComponentArgs, opts);
  return { urn: domain.urn, state: domain.outputs };
}
