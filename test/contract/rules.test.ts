/**
 * The API's own rules, checked without a call: which routes may be repeated, what the request rules say
 * is wrong, and the connection settings and answer shapes.
 */

import { describe, expect, it } from "vitest";
import { AcceptLanguage, ApiVersionSchema, BaseUrl, ConnectionInput } from "../../contract/connection";
import { hostnameProblem } from "../../contract/domains/requests";
import { Domain } from "../../contract/domains/responses";
import { formatPath } from "../../contract/path";
import { controlCharacterProblem, safeString } from "../../contract/text";
import { endpointProblem, filtersSchema, webhookCreateBodySchema } from "../../contract/webhooks/requests";
import { Webhook } from "../../contract/webhooks/responses";
import { ROUTES } from "../../provider/client/routes";
import { domainRecord } from "../../provider/domain/wire";
import { ownerOf, webhookRecord } from "../../provider/webhook/create";

const ENDPOINT = "https://hooks.example.com/events";

describe("the route table", () => {
  it("lets only reads, searches and the read-only config and catalog POSTs be repeated, and marks the webhook and domain routes", () => {
    for (const [name, route] of Object.entries(ROUTES)) {
      const readOnlyPost = /\/search\/|^\/v2\/(config|catalog)\//.test(route.path);
      expect({ name, retrySafe: route.retrySafe }).toEqual({
        name,
        retrySafe: route.method === "GET" || readOnlyPost,
      });
      const hooks = /\/(webhooks|domains)\b/.test(route.path) || route.path.includes("/search/webhooks");
      expect({ name, webhooksFeature: route.webhooksFeature }).toEqual({ name, webhooksFeature: hooks });
    }
  });
});

describe("request rule messages", () => {
  it("say what is wrong with a hostname", () => {
    expect(hostnameProblem("")).toBe("must not be empty");
    expect(hostnameProblem(`${"a.".repeat(127)}com`)).toBe("must be at most 253 characters");
    expect(hostnameProblem(`${"a.".repeat(125)}com`)).toBeUndefined();
    expect(`${"a.".repeat(125)}com`).toHaveLength(253);
    for (const host of [
      "-hooks.example.com",
      "hooks-.example.com",
      "ho_oks.example.com",
      `${"a".repeat(64)}.com`,
    ]) {
      expect(hostnameProblem(host)).toBe(
        "must consist of labels of letters, digits and inner hyphens, separated by single dots",
      );
    }
    expect(hostnameProblem(`${"a".repeat(63)}.com`)).toBeUndefined();
    expect(endpointProblem("hooks.example.com/events", "2.0")).toBe(
      "must be an absolute https:// URL: give the full address your receiver serves, such as https://hooks.example.com/service/events",
    );
  });

  it("say what is wrong with a filter list, at the filter's path", () => {
    const problems = (filters: unknown) =>
      filtersSchema("1.4")
        .safeParse(filters)
        .error?.issues.map((i) => `${formatPath(i.path)}: ${i.message}`);
    const name = { key: "activity.name", value: "authentication" };
    expect(problems([name, { key: "colour", value: "x" }])).toEqual([
      "[1].key: must be one of activity.name, activity.form_factor, owner.user.username",
    ]);
    expect(problems([name, name])).toEqual(["[1].key: activity.name must appear only once"]);
    expect(problems([name, { key: "owner.user.username" }])).toEqual(["[1]: needs value or values"]);
    expect(problems([{ key: "activity.name", values: ["authentication", "fingerprint"] }])).toEqual([
      "[0].values: activity.name takes exactly one value, authentication or fingerprint",
    ]);
    expect(problems([name, { key: "activity.form_factor", values: ["lightbox", "huge", "tiny"] }])).toEqual([
      "[1].values: activity.form_factor values must be among lightbox, microscopic, free_camera (got huge, tiny)",
    ]);
    expect(problems([name, { key: "owner.user.username", value: "" }])).toEqual([
      "[1].value: must not be empty",
    ]);
    expect(problems([name, { key: "owner.user.username", values: [""] }])).toEqual([
      "[1].values[0]: must not be empty",
    ]);
    expect(problems([name, { key: "owner.user.username", values: [] }])).toEqual([
      "[1].values: must not be empty",
    ]);
    const body = webhookCreateBodySchema("2.0").safeParse({
      endpoint: { type: "email", value: "https://hooks.example.com/e" },
      secret_key: "s".repeat(20),
      channel: "",
      filters: [name],
    });
    expect(body.error?.issues.map((i) => `${formatPath(i.path)}: ${i.message}`)).toEqual([
      "endpoint.type: must be url",
      "channel: must not be empty",
    ]);
    expect(problems([])).toEqual([
      ": must contain an activity.name filter with value authentication or fingerprint",
    ]);
  });
});

describe("connection settings and response shapes", () => {
  it("take an http(s) base URL, en or ja, 2.0 or 1.4, and a non-empty token, saying why otherwise", () => {
    for (const url of ["http://127.0.0.1:8787", "https://api.example.com/base"]) {
      expect(BaseUrl.safeParse(url).success).toBe(true);
    }
    for (const url of ["ftp://api.example.com", "httpsx://api.example.com", "xhttp://a.example.com"]) {
      expect(BaseUrl.safeParse(url).error?.issues[0]?.message).toBe("must be an http(s) URL");
    }
    expect(AcceptLanguage.safeParse("fr").error?.issues[0]?.message).toBe("must be en or ja");
    expect(ApiVersionSchema.safeParse("3.0").error?.issues[0]?.message).toBe("must be 2.0 or 1.4");
    expect(ConnectionInput.safeParse({ token: "" }).error?.issues[0]?.message).toBe("must not be empty");
  });

  it("name the control character found in any safe string", () => {
    const message = safeString().safeParse("a\u0007b").error?.issues[0]?.message;
    expect(message).toBe(controlCharacterProblem("a\u0007b"));
  });

  it("fill what the service left out: the default channel, no filters; the resources an unnamed owner", () => {
    const hookWire = { webhook_uuid: "w", endpoint: { type: "url", value: ENDPOINT } };
    const hook = Webhook.parse(hookWire);
    expect(hook).toEqual({ ...hookWire, channel: "default", filters: [] });
    expect(webhookRecord(hook).owner).toEqual({ organization: "", username: "" });
    expect(ownerOf({ organization: { name: "acme" } })).toEqual({ organization: "acme", username: "" });
    expect(domainRecord(Domain.parse({ domain_uuid: "d", domain_name: "h.example.com" })).owner).toEqual({
      organization: "",
      username: "",
    });
    // Each generation names the creation time its own way; the resources read either.
    const time = { display: "then", epoch: 1 };
    for (const key of ["create_time", "create_timestamp"]) {
      const domain = Domain.parse({ domain_uuid: "d", domain_name: "h.example.com", [key]: time });
      expect(domain).toMatchObject({ [key]: time });
      expect(domainRecord(domain).createTime).toEqual(time);
      expect(webhookRecord(Webhook.parse({ ...hookWire, [key]: time })).createTime).toEqual(time);
    }
  });
});
