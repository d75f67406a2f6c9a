import { z } from "zod";
import { inEnglish } from "../../contract/issues";
import { SESSION_KINDS } from "../../contract/kinds";
import { SNAPSHOT_SCHEMAS } from "../../contract/sessions/item-responses";
import type { Snapshot } from "../../contract/sessions/item-types";
import { type ApiVersion, isApiVersion } from "../../contract/versions";
import { rememberSecret } from "../context/process";
import { ConfigurationError } from "../errors/base";
import { InvalidSignatureError, MalformedDeliveryError } from "../errors/receiver";
import { checkSecrets } from "./secrets";
import { verifySignature } from "./signature";

/** A verified, parsed webhook delivery. */
export interface Delivery<V extends ApiVersion = "2.0"> {
  /** The webhook that sent it. */
  readonly webhookUuid: string;
  /** The webhook's channel, which lets several webhooks share one URL. */
  readonly channel: string;
  /** The snapshots delivered, in the order sent; `isAuthentication` and `isFingerprint` tell them apart. */
  readonly items: readonly Snapshot<V>[];
  /** Index in `secrets` of the key whose signature matched: during a rotation, tells old from new. */
  readonly secretIndex: number;
}

/** How to read a delivery. */
export interface ParseDeliveryOptions<V extends ApiVersion = "2.0"> {
  /**
   * The API version the webhook was created with: `"2.0"` (the default, as for the Webhook resource) or
   * `"1.4"`. The body does not say, and the service may add keys at any time, so the shape is not guessed.
   */
  readonly apiVersion?: V;
}

/** The API version a receiver reads deliveries as: `value`, or "2.0" when it is undefined. */
export function checkApiVersion(value: unknown, caller: string): ApiVersion {
  if (value === undefined) return "2.0";
  if (isApiVersion(value)) return value;
  throw new ConfigurationError(
    `${caller}: apiVersion ${JSON.stringify(value)} is not one of "2.0" and "1.4": pass the API version the webhooks were created with.`,
  );
}

/** The delivery envelope; each item is read by the schema of its kind once the envelope holds. */
const DeliveryEnvelope = z.looseObject({
  channel: z.string(),
  item_count: z.number().int().nonnegative(),
  items: z.array(z.looseObject({ activity: z.looseObject({ name: z.enum(SESSION_KINDS) }) })),
  webhook_uuid: z.string(),
});

/** Each zod issue as `path: message`, the path written as in code (`items[0].status.result`). */
function describe(issues: readonly z.core.$ZodIssue[], prefix: readonly PropertyKey[] = []): string[] {
  return issues.map((issue) => {
    const path = [...prefix, ...issue.path]
      .map((key, i) => (typeof key === "number" ? `[${key}]` : `${i === 0 ? "" : "."}${String(key)}`))
      .join("");
    return `${path || "(body)"}: ${issue.message}`;
  });
}

/** The body as JSON; bytes must be UTF-8, as the service sends them. */
function decode(rawBody: string | Uint8Array): unknown {
  try {
    const text =
      typeof rawBody === "string" ? rawBody : new TextDecoder("utf-8", { fatal: true }).decode(rawBody);
    return JSON.parse(text);
  } catch (cause) {
    // The parser's message quotes the body; the body is not needed to say what is wrong.
    throw new MalformedDeliveryError(["the body is not UTF-8 JSON"], { cause });
  }
}

/** Reads the items of a verified envelope with the schemas of `version`, or says what does not fit. */
function readItems<V extends ApiVersion>(
  envelope: z.output<typeof DeliveryEnvelope>,
  version: V,
): { items: Snapshot<V>[] } | { problems: string[] } {
  const items: Snapshot<V>[] = [];
  const problems: string[] = [];
  envelope.items.forEach((item, i) => {
    const result = SNAPSHOT_SCHEMAS[version][item.activity.name].safeParse(item, { error: inEnglish });
    // `version` is V at run time; TypeScript cannot relate the schema table's entry to it.
    if (result.success) items.push(result.data as unknown as Snapshot<V>);
    else problems.push(...describe(result.error.issues, ["items", i]));
  });
  return problems.length === 0 ? { items } : { problems };
}

/**
 * Verifies a webhook delivery's signature, then reads its body.
 *
 * @param rawBody the request body exactly as received (a string or the bytes), never a parsed object.
 * @param signatureHeader the `Service-Signature` header.
 * @param secrets the secret key of every webhook that posts to this URL: one, or two during a rotation.
 * @throws ConfigurationError (code `configuration`) when `secrets` is empty or holds a value that is not a
 *   string of at least 16 characters; the message names its position, never its value.
 * @throws InvalidSignatureError (code `invalid_signature`) when no secret produced the signature.
 * @throws MalformedDeliveryError (code `malformed_delivery`) when the signed body is not a readable
 *   delivery of `options.apiVersion`: not JSON, not the envelope, an `item_count` that does not match
 *   `items`, or an item of the wrong shape.
 */
export function parseDelivery<V extends ApiVersion = "2.0">(
  rawBody: string | Uint8Array,
  signatureHeader: string | null | undefined,
  secrets: readonly string[],
  options: ParseDeliveryOptions<V> = {},
): Delivery<V> {
  const version = checkApiVersion(options.apiVersion, "parseDelivery");
  checkSecrets(secrets, "parseDelivery");
  for (const secret of secrets) rememberSecret(secret);
  if (typeof rawBody !== "string" && !(rawBody instanceof Uint8Array)) {
    throw new InvalidSignatureError(
      "the body was given as a parsed object, not as the raw bytes received, so its signature cannot be checked: read the body as a string or a Buffer (express.raw() rather than express.json(), say)",
    );
  }
  const check = verifySignature(rawBody, signatureHeader, secrets);
  if (!check.valid) throw new InvalidSignatureError(check.reason);

  const parsed = DeliveryEnvelope.safeParse(decode(rawBody), { error: inEnglish });
  if (!parsed.success) throw new MalformedDeliveryError(describe(parsed.error.issues));
  const envelope = parsed.data;
  const webhookUuid = envelope.webhook_uuid;
  if (envelope.item_count !== envelope.items.length) {
    throw new MalformedDeliveryError(
      [`item_count is ${envelope.item_count} but items holds ${envelope.items.length}`],
      { webhookUuid },
    );
  }
  const read = readItems(envelope, version as V);
  if ("problems" in read) {
    const other: ApiVersion = version === "2.0" ? "1.4" : "2.0";
    const fitsOther = !("problems" in readItems(envelope, other));
    const hint = fitsOther
      ? `Its items have the API ${other} shape: the webhook was probably created with apiVersion "${other}", so pass { apiVersion: "${other}" }.`
      : undefined;
    throw new MalformedDeliveryError(read.problems, { webhookUuid, hint });
  }
  return { webhookUuid, channel: envelope.channel, items: read.items, secretIndex: check.secretIndex };
}
