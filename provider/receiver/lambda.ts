import type { ApiVersion } from "../../contract/versions";
import { checkReceiverOptions, type ReceiverOptions, receiveDelivery } from "./receive";

/**
 * The members of an AWS Lambda function URL event that the receiver reads. Declared here so that neither
 * the code nor its published types need `@types/aws-lambda`; `LambdaFunctionURLEvent` is assignable to it.
 */
export interface FunctionUrlEvent {
  /** The request body, base64 when `isBase64Encoded`; absent when the request had none. */
  readonly body?: string | undefined;
  /** True when the runtime base64-encoded the body (non-text content types). */
  readonly isBase64Encoded?: boolean | undefined;
  /** Header names arrive in lower case. */
  readonly headers?: Readonly<Record<string, string | undefined>> | undefined;
  /** Where the request's method is; a request without it is taken as a POST. */
  readonly requestContext?:
    | {
        /** The HTTP part of the request. */
        readonly http?:
          | {
              /** The HTTP method; anything but POST is answered 405. */
              readonly method?: string | undefined;
            }
          | undefined;
      }
    | undefined;
}

/** A function URL response; assignable to `LambdaFunctionURLResult`. */
export interface FunctionUrlResult {
  /** 200, or the status that tells the service to retry (400, 401, 405, 500). */
  readonly statusCode: number;
  /** `content-type: text/plain`, and `allow: POST` with a 405. */
  readonly headers: Readonly<Record<string, string>>;
  /** A short plain-text explanation of the status. */
  readonly body: string;
}

function header(event: FunctionUrlEvent, name: string): string | undefined {
  const entry = Object.entries(event.headers ?? {}).find(([key]) => key.toLowerCase() === name);
  return entry?.[1];
}

const result = (
  statusCode: number,
  body: string,
  headers: Record<string, string> = {},
): FunctionUrlResult => ({
  statusCode,
  headers: { "content-type": "text/plain; charset=utf-8", ...headers },
  body,
});

/**
 * A handler for an AWS Lambda function URL (direct or behind CloudFront) that receives webhook
 * deliveries: it decodes the body (base64 when `isBase64Encoded`), then verifies, parses and processes it
 * as `receiveDelivery` does. Answers 200 when every item was processed or skipped as stale, 401 for a bad
 * signature, 400 for a malformed body, 405 for a method other than POST, and 500 when `handleItem` or the
 * store failed; the service retries every answer but 200. The returned promise never rejects.
 *
 * @example
 * ```ts
 * import { type CounterStore, createLambdaHandler } from "@service/pulumi/receiver";
 *
 * // A table whose write is conditional (`updateCounter <= :n`), so that a late delivery never lowers a
 * // counter: examples/aws-cloudfront/receiver.ts has one on DynamoDB. A Map would lower it.
 * declare const store: CounterStore;
 * export const handler = createLambdaHandler({
 *   secrets: (process.env.WEBHOOK_SECRETS ?? "").split(","),
 *   store,
 *   handleItem: (item) => console.log(item.service_id, item.update_counter),
 * });
 * ```
 */
export function createLambdaHandler<V extends ApiVersion = "2.0">(
  options: ReceiverOptions<V>,
): (event: FunctionUrlEvent) => Promise<FunctionUrlResult> {
  checkReceiverOptions(options, "createLambdaHandler");
  return async (event) => {
    const method = event.requestContext?.http?.method;
    if (method !== undefined && method !== "POST")
      return result(405, "only POST is accepted", { allow: "POST" });
    const raw = event.isBase64Encoded ? Buffer.from(event.body ?? "", "base64") : (event.body ?? "");
    try {
      const outcome = await receiveDelivery(raw, header(event, "service-signature"), options);
      return result(outcome.status, outcome.body);
    } catch {
      // Only onFailure can throw here; the delivery must still get an answer.
      return result(500, "receiver failed");
    }
  };
}
