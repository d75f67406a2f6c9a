/**
 * What a field of a resource's declaration is, beyond its type: each resource declares its inputs and its
 * state as zod objects whose fields carry these facts (`field(schema, facts)`), and everything else is
 * read from them: the inputs a diff compares and those that replace, a check's advice, the secrets, and
 * (tools/codegen/schema-sources.ts) the schema. The facts live in a registry of this package's own, so
 * that the process's zod keeps no trace of them.
 */

import { z } from "zod";
import { AcceptLanguage, ConnectionInput } from "../../contract/connection";
import type { FieldAdvice } from "../lifecycle/check";
import {
  type Comparison,
  connection,
  hashedSecret,
  type InputKinds,
  language,
} from "../lifecycle/input-comparison";
import type { SecretProperties } from "./declaration";

/** The facts of one field. Every one is optional: a field with none is plain data. */
export interface FieldFacts {
  /** A secret, or derived from one: marked secret in state, in the outputs and in the schema. */
  readonly secret?: boolean;
  /** An input whose change replaces the object. */
  readonly replaces?: boolean;
  /** An input whose given value a check failure may quote: never a secret, a credential or a URL with one. */
  readonly quoted?: boolean;
  /** The next step a check failure gives for the input, where its rule has none of its own. */
  readonly advice?: string;
  /** How diff compares the input with state; an input without one is never compared. */
  readonly compare?: Comparison;
  /** A secret input that state keeps only as a salted hash, under this member. */
  readonly hashedAs?: string;
  /** An input whose rules depend on the API version: left unchecked while the version is unknown. */
  readonly versioned?: boolean;
  /** A member of state that the resource publishes as an output even when no input gives it. */
  readonly output?: boolean;
}

const FACTS = z.registry<FieldFacts>();

/** `schema` as a field with `facts`. Each field needs a schema of its own: facts belong to the instance. */
export function field<T extends z.ZodType>(schema: T, facts: FieldFacts): T {
  // zod types a registry's entries against the schema they describe; these facts describe none of its types.
  FACTS.add(schema, facts as never);
  return schema;
}

/** The facts of each field of `object`, in its order. */
function factsOf(object: z.ZodObject): [string, FieldFacts][] {
  return Object.entries(object.shape).map(([key, schema]) => [key, FACTS.get(schema as z.ZodType) ?? {}]);
}

/** The fields of `object` whose facts pass `test`. */
export function fieldsWhere(object: z.ZodObject, test: (facts: FieldFacts) => boolean | undefined): string[] {
  return factsOf(object)
    .filter(([, facts]) => test(facts))
    .map(([key]) => key);
}

/** The inputs a diff compares, each by its comparison, in the order declared. */
export function inputKinds(inputs: z.ZodObject): InputKinds {
  return Object.fromEntries(
    factsOf(inputs).flatMap(([key, facts]): [string, Comparison][] => {
      if (facts.hashedAs !== undefined) return [[key, hashedSecret(facts.hashedAs)]];
      return facts.compare ? [[key, facts.compare]] : [];
    }),
  );
}

/** The inputs kept in state only as a salted hash, each with the member that holds it. */
export function hashedInputs(inputs: z.ZodObject): Readonly<Record<string, string>> {
  return Object.fromEntries(
    factsOf(inputs).flatMap(([key, facts]) => (facts.hashedAs === undefined ? [] : [[key, facts.hashedAs]])),
  );
}

/** How a check failure describes each input: which it may quote, and the next steps. */
export function fieldAdvice(inputs: z.ZodObject, extra: Readonly<Record<string, string>> = {}): FieldAdvice {
  return {
    quoted: fieldsWhere(inputs, (facts) => facts.quoted),
    nextSteps: {
      ...Object.fromEntries(
        factsOf(inputs).flatMap(([key, facts]) => (facts.advice === undefined ? [] : [[key, facts.advice]])),
      ),
      ...extra,
    },
  };
}

/** The secret inputs and the secret members of state. */
export function secretsOf(inputs: z.ZodObject, state: z.ZodObject): SecretProperties {
  const secret = (facts: FieldFacts) => facts.secret;
  return { inputs: fieldsWhere(inputs, secret), outputs: fieldsWhere(state, secret) };
}

/**
 * `connection` and `acceptLanguage`, which every resource takes and which change nothing on the service:
 * a change to them is an update in place, and state keeps them so that delete and refresh use the same
 * credentials. A function, since each object declaring them needs fields of its own.
 */
export function commonFields(role: "input" | "state") {
  const compared = role === "input";
  return {
    acceptLanguage: field(AcceptLanguage.optional(), {
      quoted: true,
      ...(compared ? { compare: language } : {}),
      advice: "give en or ja, or leave acceptLanguage out for en",
    }),
    connection: field(ConnectionInput.optional(), {
      secret: true,
      ...(compared ? { compare: connection } : {}),
      advice:
        "give connection: { token, baseUrl }, with the token as a secret, or leave connection out to use the stack's service:token and service:baseUrl",
    }),
  };
}
