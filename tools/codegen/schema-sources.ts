/**
 * Where the schema finds each resource's shapes (its zod schemas) and documentation (its TypeScript
 * declarations). Keyed by the registry's keys and checked against them, so that a resource added to the
 * registry fails to compile here until the schema can describe it.
 */
import type { z } from "zod";
import { LANGUAGES, type Language } from "../../contract/languages";
import { API_VERSIONS, type ApiVersion } from "../../contract/versions";
import {
  REGISTRATION_SECRETS,
  RegistrationInputs,
  RegistrationOutputs,
  VERIFICATION_SECRETS,
  VerificationInputs,
  VerificationOutputs,
} from "../../provider/domain/resource";
import { DomainComponentInputs, DomainComponentOutputs } from "../../provider/plugin/domain-component";
import { FileInputs, FileOutputs } from "../../provider/publishers/verification-file";
import * as registry from "../../provider/registry";
import type { SecretProperties } from "../../provider/resource-kit/declaration";
import { WEBHOOK_SECRETS, WebhookState, webhookInputsSchema } from "../../provider/webhook/resource";
import type { EnumDeclaration, EnumValue } from "./pulumi-types";

/** A TypeScript declaration, by file (relative to the package root) and name. */
interface DocSource {
  readonly file: string;
  readonly name: string;
}

/** A resource or component: what it accepts and outputs, and where its TSDoc is. */
export interface Shape {
  /** The inputs, as `check` (or Construct) accepts them. */
  readonly inputs: z.ZodObject;
  /** What it outputs: only the members the resource class declares are published. */
  readonly outputs: z.ZodObject;
  /** The interface that documents the inputs. */
  readonly args: DocSource;
  /** The class that documents the resource and its outputs. */
  readonly resource: DocSource;
  /** Which inputs and outputs the schema marks secret. */
  readonly secrets: SecretProperties;
}

/** A resource whose inputs interface and class are declared in one `file`. */
const shape = (
  inputs: z.ZodObject,
  outputs: z.ZodObject,
  file: string,
  args: string,
  resource: string,
  secrets: SecretProperties,
): Shape => ({ inputs, outputs, args: { file, name: args }, resource: { file, name: resource }, secrets });

/** Every resource of the registry. */
export const RESOURCE_SHAPES = {
  webhook: shape(
    webhookInputsSchema("2.0"),
    WebhookState,
    "provider/webhook/webhook.ts",
    "WebhookArgs",
    "Webhook",
    WEBHOOK_SECRETS,
  ),
  domainRegistration: shape(
    RegistrationInputs,
    RegistrationOutputs,
    "provider/domain/steps.ts",
    "DomainRegistrationArgs",
    "DomainRegistration",
    REGISTRATION_SECRETS,
  ),
  domainVerification: shape(
    VerificationInputs,
    VerificationOutputs,
    "provider/domain/steps.ts",
    "DomainVerificationArgs",
    "DomainVerification",
    VERIFICATION_SECRETS,
  ),
  verificationFile: shape(
    FileInputs,
    FileOutputs,
    "provider/publishers/directory.ts",
    "VerificationFileArgs",
    "VerificationFile",
    registry.verificationFile.secrets,
  ),
} satisfies Record<keyof typeof registry, Shape>;

/** The Domain component, as the provider plugin constructs it. */
export const DOMAIN_SHAPE: Shape = {
  inputs: DomainComponentInputs,
  outputs: DomainComponentOutputs,
  args: { file: "provider/plugin/domain-component.ts", name: "DomainComponentArgs" },
  resource: { file: "provider/domain/component.ts", name: "Domain" },
  // The component passes its inputs to its steps: what is secret there is secret here.
  secrets: { inputs: VERIFICATION_SECRETS.inputs, outputs: [] },
};

/** Every file the documentation is read from. */
export const DOCUMENTED_FILES = [
  ...new Set(
    [...Object.values(RESOURCE_SHAPES), DOMAIN_SHAPE].flatMap((s) => [s.args.file, s.resource.file]),
  ),
];

/** The values of `values`, each named and described by `docs`, which must cover every one of them. */
const enumValues = <V extends string>(
  values: readonly V[],
  docs: Readonly<Record<V, Omit<EnumValue, "value">>>,
): EnumValue[] => values.map((value) => ({ value, ...docs[value] }));

/**
 * The enums of the schema: a string input, output or setting whose zod schema takes exactly one of these
 * sets of values refers to its type. Their values come from the contract; a value added there fails to
 * compile here until it is named.
 */
export const ENUMS = {
  acceptLanguage: {
    name: "AcceptLanguage",
    description: "A display language of the service's answers (`Accept-Language`).",
    values: enumValues<Language>(LANGUAGES, {
      en: { name: "English", description: "English, the service's default." },
      ja: { name: "Japanese", description: "Japanese." },
    }),
  },
  apiVersion: {
    name: "ApiVersion",
    description: "An API version the package speaks (`Api-Version`).",
    values: enumValues<ApiVersion>(API_VERSIONS, {
      "2.0": { name: "V2_0", description: "API 2.0, on the `/v2` routes: the default." },
      "1.4": { name: "V1_4", description: "API 1.4, on the `/v1` routes." },
    }),
  },
} as const satisfies Record<string, EnumDeclaration>;
