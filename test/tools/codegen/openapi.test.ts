import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import { StartRegistrationBody } from "../../../contract/domains/requests";
import { API_VERSIONS } from "../../../contract/versions";
import { webhookCreateBodySchema } from "../../../contract/webhooks/requests";
import { ROUTES } from "../../../provider/client/routes";
import { negotiateLanguage } from "../../../sandbox/accept-language";
import { signatureFor } from "../../../sandbox/deliveries";
import { generateOpenApi, OPENAPI_FILE, openApiText } from "../../../tools/codegen/openapi";
import { generation, OPERATIONS } from "../../../tools/codegen/openapi-operations";

/**
 * openapi.json, the OpenAPI 3.1 document of the Service API, is generated from the route table and the
 * schemas of contract/ and checked in: these fail when the two part, or when the document leaves out
 * a route, a generation, an error of the spec or the deliveries' signature.
 */
const root = join(__dirname, "../../..");
const document = generateOpenApi(root) as any;

describe("the OpenAPI document", () => {
  it("is checked in as the route table and the schemas generate it", () => {
    if (readFileSync(join(root, OPENAPI_FILE), "utf8") !== openApiText(root)) {
      throw new Error(
        `${OPENAPI_FILE} differs from what the route table and the schemas generate: run \`npm run openapi\`.`,
      );
    }
  });

  it("has every route of the table, in its generation, and nothing else", () => {
    expect(document.openapi).toMatch(/^3\.1\./);
    const documented = Object.entries(document.paths as Record<string, Record<string, any>>).flatMap(
      ([path, item]) => Object.entries(item).map(([method, op]) => ({ path, method, op })),
    );
    expect(documented.map((d) => d.op.operationId).sort()).toEqual(Object.keys(ROUTES).sort());
    for (const { path, method, op } of documented) {
      const route = ROUTES[op.operationId as keyof typeof ROUTES];
      expect([path, method.toUpperCase()]).toEqual([route.path, route.method]);
      const apiVersion = op.parameters.find((p: any) => p.name === "Api-Version");
      expect(apiVersion).toMatchObject({ in: "header", required: true, schema: { enum: route.accepts } });
      expect(op.tags).toContain(route.version === "1.4" ? "v1.4" : "v2");
      expect(op["x-inferred"]).toBe(route.inferred);
      expect(op.responses["200"].content["application/json"].schema).toBeDefined();
    }
    expect(ROUTES.v1CreateWebhook.accepts).toEqual(["1.4", "1.3"]);
  });

  it("gives each route the errors of spec 7: 400, 401 and 429 with Retry-After everywhere, and its own", () => {
    const responses = (name: keyof typeof ROUTES) => {
      const route = ROUTES[name];
      return document.paths[route.path][route.method.toLowerCase()].responses;
    };
    for (const name of Object.keys(ROUTES) as (keyof typeof ROUTES)[]) {
      expect(Object.keys(responses(name))).toEqual(expect.arrayContaining(["200", "400", "401", "429"]));
      // A token without webhooks enabled is refused on every webhook and domain route.
      if (ROUTES[name].webhooksFeature) expect(responses(name)).toHaveProperty("403");
    }
    expect(document.components.responses.TooManyRequests.headers["Retry-After"]).toMatchObject({
      required: true,
    });
    expect(Object.keys(responses("v1CreateWebhook"))).toEqual(["200", "400", "401", "403", "409", "429"]);
    expect(responses("v2DeactivateDomain")).toHaveProperty("409");
    expect(responses("v1GetAuthentication")).toHaveProperty("403");
    expect(responses("v2FinishDomainRegistration")["429"].description).toMatch(/failed finish attempts/);
    expect(responses("v2SupportedBrands")).toHaveProperty("503");
    expect(responses("v2AuthorizeUser")).not.toHaveProperty("403");
  });

  it("describes each generation's own shapes: secret key lengths, page sizes, image flags", () => {
    const { schemas } = document.components;
    expect(schemas.WebhookCreateRequestV1.properties.secret_key).toMatchObject({
      type: "string",
      minLength: 20,
    });
    expect(schemas.WebhookCreateRequestV2.properties.secret_key).toMatchObject({
      type: "string",
      minLength: 16,
      maxLength: 256,
    });
    expect(schemas.ListRequestV2.properties.limit.anyOf[0]).toEqual({
      type: "integer",
      minimum: 1,
      maximum: 20,
    });
    expect(schemas.ListRequestV1.properties.limit.anyOf[0]).toEqual({
      type: "integer",
      minimum: 1,
      maximum: 25,
    });
    const query = (path: string) =>
      document.paths[path].get.parameters.filter((p: any) => p.in === "query").map((p: any) => p.name);
    expect(query("/v1/fingerprints/{service_id}")).toEqual([]);
    expect(query("/v1/authentications/{service_id}")).toEqual(["format_options__return_item_photos"]);
    expect(query("/v2/fingerprints/{service_id}")).toEqual([
      "format_options__return_item_photos",
      "include_images",
    ]);
    expect(schemas.AuthenticationItemV2.properties.status.required).toContain("retake");
    expect(schemas.AuthenticationItemV1.properties.status.properties).not.toHaveProperty("retake");
  });

  it("gives examples that its routes' own request schemas accept", () => {
    let examples = 0;
    for (const [name, entry] of Object.entries(OPERATIONS)) {
      const op = typeof entry === "function" ? entry(ROUTES[name as keyof typeof ROUTES].version) : entry;
      if (op.body?.example === undefined) continue;
      examples++;
      expect(op.body.schema.schema.safeParse(op.body.example).error, name).toBeUndefined();
      const route = ROUTES[name as keyof typeof ROUTES];
      const content = document.paths[route.path][route.method.toLowerCase()].requestBody.content;
      expect(content["application/json"].example).toEqual(op.body.example);
    }
    expect(examples).toBeGreaterThanOrEqual(10);
  });

  it("says that no string of a request holds a control character, members it does not name included", () => {
    const { schemas } = document.components;
    const plain = new RegExp(schemas.PlainJson.anyOf.find((s: any) => s.type === "string").pattern);
    expect(plain.test("hooks.example.com é 日本")).toBe(true);
    for (const control of ["\u0000", "\t", "\n", "\u001f", "\u007f", "\u0085", "\u009f"]) {
      expect(plain.test(`a${control}b`), JSON.stringify(control)).toBe(false);
    }
    const lookup = document.paths["/v2/lookup/authentications/{lookup_value}"].get.parameters[0];
    expect(lookup.schema.pattern).toBe(plain.source);
    expect(schemas.LoginVoucherRequest.properties.email.allOf).toEqual([{ pattern: plain.source }]);
    expect(schemas.ListRequestV1.properties.cursor.anyOf[0].pattern).toBe(plain.source);
    for (const open of [
      "LoginVoucherRequest",
      "StartRegistrationRequest",
      "NoParameters",
      "AuthenticationSearchV2",
    ]) {
      expect(schemas[open].additionalProperties, open).toEqual({ $ref: "#/components/schemas/PlainJson" });
    }
    // Responses may hold what the service sends: the rule is the sandbox's for requests only.
    expect(schemas.Webhook.additionalProperties).not.toEqual({ $ref: "#/components/schemas/PlainJson" });
  });

  it("states the hostname and endpoint rules the request schemas check in code: what it allows, they accept", () => {
    const { schemas } = document.components;
    const allowed = (schema: any) => fc.stringMatching(new RegExp(schema.pattern));
    const host = schemas.StartRegistrationRequest.properties.domain_name;
    fc.assert(
      fc.property(allowed(host), (domain_name) => {
        fc.pre(domain_name.length <= host.maxLength);
        expect(StartRegistrationBody.safeParse({ domain_name }).error).toBeUndefined();
      }),
    );
    for (const version of API_VERSIONS) {
      const body = schemas[`WebhookCreateRequest${generation(version)}`];
      const endpoint = webhookCreateBodySchema(version).shape.endpoint;
      fc.assert(
        fc.property(allowed(body.properties.endpoint.properties.value), (value) => {
          fc.pre(new URL(value).hostname.length <= host.maxLength);
          expect(endpoint.safeParse({ type: "url", value }).error, value).toBeUndefined();
        }),
      );
      expect(body.properties.filters.contains.properties.key).toEqual({ const: "activity.name" });
    }
    for (const refused of ["10.0.0.1", "a.0x1f", "Hooks.example.com", "localhost", "a..b"]) {
      expect(new RegExp(host.pattern).test(refused), refused).toBe(false);
    }
  });

  it("lists a 400 of its own on exactly the operations whose valid-looking data schemathesis.toml lets be refused", () => {
    const toml = readFileSync(join(root, "schemathesis.toml"), "utf8");
    const entries = [
      ...toml.matchAll(
        /include-path = (\[[^\]]*\]|"[^"]*")\n(?:.*\n)*?checks\.positive_data_acceptance\.expected-statuses = (\[.*\])/g,
      ),
    ];
    const excused = entries.flatMap(([, paths, statuses]) => {
      expect(JSON.parse(statuses!)).toContain("400");
      return JSON.parse(paths!.replace(/,\s*\]/, "]")) as string[] | string;
    });
    const own400 = Object.entries(document.paths as Record<string, Record<string, any>>)
      .filter(([, item]) => Object.values(item).some((op) => op.responses["400"].$ref === undefined))
      .map(([path]) => path);
    expect([excused].flat().sort()).toEqual(own400.sort());
    expect(own400).toContain("/v2/search/domains");
  });

  it("refers only to what it defines", () => {
    const refs = JSON.stringify(document).match(/"\$ref":"[^"]+"/g) ?? [];
    expect(refs.length).toBeGreaterThan(50);
    for (const ref of new Set(refs)) {
      const [, kind, name] = /"#\/components\/(\w+)\/(\w+)"/.exec(ref.slice(7)) ?? [];
      expect(document.components[kind!]?.[name!], ref).toBeDefined();
    }
  });

  it("has the deliveries of both generations, signed in the Service-Signature header the sandbox sends", () => {
    expect(Object.keys(document.webhooks)).toEqual(["deliveryV1", "deliveryV2"]);
    for (const [name, item] of Object.entries(document.webhooks as Record<string, any>)) {
      const { post } = item;
      const signature = post.parameters.find((p: any) => p.name === "Service-Signature");
      expect(signature).toMatchObject({ in: "header", required: true });
      const pattern = new RegExp(signature.schema.pattern);
      expect(pattern.test(signatureFor('{"items":[]}', "a-secret-of-24-characters"))).toBe(true);
      expect(pattern.test("SHA256:not-base64")).toBe(false);
      expect(post.security).toEqual([]);
      const body =
        document.components.schemas[
          post.requestBody.content["application/json"].schema.$ref.split("/").at(-1)
        ];
      expect(body.required).toEqual(["channel", "item_count", "items", "webhook_uuid"]);
      expect(JSON.stringify(body.properties.items)).toContain(`Snapshot${name.slice(-2)}`);
    }
    const v2 = document.components.schemas.AuthenticationSnapshotV2;
    expect(v2.properties).not.toHaveProperty("timestamp");
    expect(v2.properties.status.properties).not.toHaveProperty("flag_reason_id");
    expect(v2.required).toContain("update_counter");
    expect(document.components.schemas.AuthenticationSnapshotV1.required).toContain("timestamp");
  });

  it("takes every Accept-Language the sandbox reads (a list of ranges of en, ja or *, or a blank), and no other", () => {
    const pattern = new RegExp(document.components.parameters.AcceptLanguage.schema.pattern);
    const reads = (header: string) => {
      try {
        negotiateLanguage(header);
        return true;
      } catch {
        return false;
      }
    };
    const range = fc.constantFrom("en", "ja", "EN", "Ja-jp", "*", "fr", "de-DE", "en_US", "jap", "", " en ");
    const weight = fc.constantFrom("", ";q=0.5", ";q=1", " ; q=0.2");
    const header = fc
      .array(
        fc.tuple(range, weight).map(([r, w]) => `${r}${w}`),
        { minLength: 1, maxLength: 3 },
      )
      .map((parts) => parts.join(","));
    fc.assert(
      fc.property(header, (value) => {
        if (reads(value)) expect(pattern.test(value), value).toBe(true);
      }),
    );
    for (const refused of ["fr", "english", "de-DE,fr", "jap"]) {
      expect([reads(refused), pattern.test(refused)], refused).toEqual([false, false]);
    }
  });
});
