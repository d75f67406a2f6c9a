/**
 * createLambdaHandler (provider/receiver/lambda.ts): the body of a function URL's event verified as sent,
 * plain or base64-encoded, and the answers to a bad signature, a malformed body, another method and a
 * failing function.
 */
import type { LambdaFunctionURLEvent, LambdaFunctionURLResult } from "aws-lambda";
import { describe, expect, it } from "vitest";
import { ConfigurationError } from "../../../provider/errors/index";
import {
  createLambdaHandler,
  type FunctionUrlEvent,
  type FunctionUrlResult,
} from "../../../provider/receiver/index";
import { delivery, fingerprintItem as item, recorder, sign } from "../../helpers/delivery-items";

// The declared event and result stay compatible with @types/aws-lambda, which users' code passes in.
const _event: FunctionUrlEvent = {} as LambdaFunctionURLEvent;
const _result: LambdaFunctionURLResult = {} as FunctionUrlResult;
void [_event, _result];

describe("the Lambda function URL handler", () => {
  const event = (raw: string, overrides: Partial<FunctionUrlEvent> = {}): FunctionUrlEvent => ({
    body: raw,
    isBase64Encoded: false,
    headers: { "service-signature": sign(raw), "content-type": "application/json" },
    requestContext: { http: { method: "POST" } },
    ...overrides,
  });

  it("verifies the body as sent, plain or base64-encoded, whatever the header's case", async () => {
    const r = recorder();
    const handler = createLambdaHandler(r.options);
    const raw = delivery(item("a", 1));
    expect(await handler(event(raw))).toEqual({
      statusCode: 200,
      headers: { "content-type": "text/plain; charset=utf-8" },
      body: "ok",
    });
    const encoded = event(Buffer.from(raw).toString("base64"), {
      isBase64Encoded: true,
      headers: { "Service-Signature": sign(raw) },
    });
    expect((await handler(encoded)).statusCode).toBe(200);
    expect((await handler(event(raw, { requestContext: undefined }))).statusCode).toBe(200);
    expect((await handler(event(raw, { requestContext: {} }))).statusCode).toBe(200);
    expect(r.handled).toEqual(["a@1", "a@1", "a@1", "a@1"]);
  });

  it("reads an event without a body as an empty body, plain or base64", async () => {
    const r = recorder();
    const handler = createLambdaHandler(r.options);
    // Signed, so that the empty body is what gets read: it is then no delivery.
    const headers = { "service-signature": sign("") };
    for (const isBase64Encoded of [false, true]) {
      const answer = await handler({ ...event("", { headers, isBase64Encoded }), body: undefined });
      expect([answer.statusCode, answer.body]).toEqual([400, "malformed delivery"]);
    }
    expect(r.failures.map((f) => f.message)).toEqual([
      expect.stringMatching(/not UTF-8 JSON/),
      expect.stringMatching(/not UTF-8 JSON/),
    ]);
  });

  it("answers 401, 400, 405 and 500", async () => {
    const r = recorder(() => true);
    const handler = createLambdaHandler(r.options);
    const raw = delivery(item("a", 1));
    expect((await handler(event(raw, { headers: {} }))).statusCode).toBe(401);
    expect((await handler({ ...event("[]"), body: undefined })).statusCode).toBe(401);
    expect((await handler(event("[]"))).statusCode).toBe(400);
    expect(await handler(event(raw, { requestContext: { http: { method: "GET" } } }))).toEqual({
      statusCode: 405,
      headers: { "content-type": "text/plain; charset=utf-8", allow: "POST" },
      body: "only POST is accepted",
    });
    expect((await handler(event(raw))).statusCode).toBe(500);
    const throwing = createLambdaHandler({
      ...r.options,
      onFailure: () => {
        throw new Error("logger down");
      },
    });
    expect(await throwing(event("[]"))).toEqual({
      statusCode: 500,
      headers: { "content-type": "text/plain; charset=utf-8" },
      body: "receiver failed",
    });
  });

  it("refuses bad options when it is created", () => {
    const { options } = recorder();
    expect(() => createLambdaHandler({ ...options, secrets: [] })).toThrow(/at least one secret/);
    expect(() =>
      createLambdaHandler(undefined as unknown as Parameters<typeof createLambdaHandler>[0]),
    ).toThrow(ConfigurationError);
  });
});
