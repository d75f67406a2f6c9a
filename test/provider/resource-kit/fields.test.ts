/**
 * A resource's declaration: what its fields' facts derive (provider/resource-kit/fields.ts), on a small
 * declaration of its own, and on the Webhook's.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { exact } from "../../../provider/lifecycle/input-comparison";
import {
  commonFields,
  field,
  fieldAdvice,
  fieldsWhere,
  hashedInputs,
  inputKinds,
  secretsOf,
} from "../../../provider/resource-kit/fields";
import { HASHED, RECORDED_INPUTS, REPLACING, WEBHOOK_SECRETS } from "../../../provider/webhook/resource";

const inputs = z.object({
  name: field(z.string(), { replaces: true, quoted: true, compare: exact, advice: "give a name" }),
  password: field(z.string(), { secret: true, replaces: true, hashedAs: "passwordHash" }),
  note: z.string().optional(),
  ...commonFields("input"),
});
const state = z.object({
  name: z.string(),
  passwordHash: field(z.string(), { secret: true }),
  ...commonFields("state"),
});

describe("a declaration's fields", () => {
  it("give the inputs a diff compares, in the order declared, and only those", () => {
    expect(Object.keys(inputKinds(inputs))).toEqual(["name", "password", "acceptLanguage", "connection"]);
    expect(inputKinds(inputs).name).toBe(exact);
  });

  it("give the inputs that replace, and the hashed ones with their hash's member", () => {
    expect(fieldsWhere(inputs, (facts) => facts.replaces)).toEqual(["name", "password"]);
    expect(hashedInputs(inputs)).toEqual({ password: "passwordHash" });
  });

  it("give the advice: only the fields marked quoted may be quoted, never a secret", () => {
    const advice = fieldAdvice(inputs);
    expect(advice.quoted).toEqual(["name", "acceptLanguage"]);
    expect(advice.nextSteps.name).toBe("give a name");
    expect(Object.keys(advice.nextSteps)).toEqual(["name", "acceptLanguage", "connection"]);
  });

  it("give the secrets of the inputs and of state", () => {
    expect(secretsOf(inputs, state)).toEqual({
      inputs: ["password", "connection"],
      outputs: ["passwordHash", "connection"],
    });
  });

  it("leave no trace in the process's zod", () => {
    expect(z.globalRegistry.get(inputs.shape.name)).toBeUndefined();
  });
});

describe("the Webhook's declaration", () => {
  it("replaces on every input but the common members and adoptWebhookUuid", () => {
    expect(REPLACING).toEqual(["endpoint", "secretKey", "filters", "channel", "apiVersion"]);
  });

  it("keeps the secret key only hashed, and records every other input in state", () => {
    expect(HASHED).toEqual({ secretKey: "secretKeyHash" });
    expect(RECORDED_INPUTS).toEqual([
      "endpoint",
      "filters",
      "channel",
      "apiVersion",
      "acceptLanguage",
      "connection",
      "adoptWebhookUuid",
    ]);
  });

  it("marks the secret key, its hash, the credentials and their hash secret", () => {
    expect(WEBHOOK_SECRETS).toEqual({
      inputs: ["secretKey", "connection"],
      outputs: ["secretKeyHash", "connection", "credentialsHash"],
    });
  });
});
