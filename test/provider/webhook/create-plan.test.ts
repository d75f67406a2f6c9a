import { beforeEach, describe, expect, it } from "vitest";
import { credentialKey } from "../../../provider/lifecycle/clients";
import { createKey, parseInputs, planCreate } from "../../../provider/webhook/create";
import { HOOKS_TOKEN, HOST, OTHER_TOKEN, SECRET, webhookArgs } from "../../helpers/fixtures";
import { configureStack } from "../../helpers/runtime";

/**
 * A Webhook create is planned once (create-plan.ts): every step of the create acts on what the plan holds,
 * so the plan must hold exactly what the inputs decide, whichever way the program spelled them.
 */

const BASE_URL = "http://127.0.0.1:9";
const ENDPOINT = `https://${HOST}/service/events`;

const plan = (overrides: Record<string, unknown> = {}, provider: unknown = "provider code") =>
  planCreate(parseInputs(webhookArgs(overrides)), provider);

beforeEach(() => {
  configureStack(BASE_URL, HOOKS_TOKEN);
});

describe("a create's plan", () => {
  it("holds the identity, the wire body and the key that the inputs decide", () => {
    const planned = plan({
      filters: [
        { key: "activity.form_factor", values: ["microscopic", "lightbox"] },
        { key: "activity.name", values: ["authentication"] },
      ],
    });
    const identity = {
      endpoint: ENDPOINT,
      channel: "default",
      filters: [
        { key: "activity.form_factor", values: ["lightbox", "microscopic"] },
        { key: "activity.name", values: ["authentication"] },
      ],
    };
    expect(planned.identity).toEqual(identity);
    expect(planned.body).toEqual({
      endpoint: { type: "url", value: ENDPOINT },
      secret_key: SECRET,
      channel: "default",
      filters: [
        { key: "activity.form_factor", values: ["lightbox", "microscopic"] },
        { key: "activity.name", value: "authentication" },
      ],
    });
    expect(planned.key).toEqual({
      credentials: credentialKey(planned.client),
      identity: JSON.stringify(identity),
    });
    expect(planned.provider).toBe("provider code");
    expect(planned.client.options).toMatchObject({ token: HOOKS_TOKEN, baseUrl: BASE_URL });
  });

  it("keys alike the creates the service could not tell apart, and apart all others", () => {
    const first = plan({ filters: [{ key: "activity.name", values: ["authentication"] }] });
    expect(plan({ channel: "default" }).key).toEqual(first.key);
    expect(plan({ channel: "orders" }).key).not.toEqual(first.key);
    expect(plan({ endpoint: `${ENDPOINT}/other` }).key).not.toEqual(first.key);
    const otherCredentials = plan({ connection: { token: OTHER_TOKEN, baseUrl: BASE_URL } });
    expect(otherCredentials.key.identity).toBe(first.key.identity);
    expect(otherCredentials.key.credentials).not.toBe(first.key.credentials);
    expect(otherCredentials.key).toEqual(createKey(otherCredentials.client, first.identity));
  });

  it("speaks the API version the inputs name", () => {
    expect(plan({ apiVersion: "1.4" }).client.apiVersion).toBe("1.4");
    expect(plan().client.apiVersion).toBe("2.0");
  });
});
