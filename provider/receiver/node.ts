import type { IncomingMessage, ServerResponse } from "node:http";
import type { ApiVersion } from "../../contract/versions";
import { ConfigurationError } from "../errors/base";
import { checkReceiverOptions, failureReporter, type ReceiverOptions, receiveDelivery } from "./receive";

/** The largest body the Node handler reads unless told otherwise: deliveries are small JSON documents. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/** Options of the Node `http` handler. */
export interface NodeHandlerOptions<V extends ApiVersion = "2.0"> extends ReceiverOptions<V> {
  /** Bodies larger than this are refused with 413 without being read whole; default 1 MiB. */
  readonly maxBodyBytes?: number;
}

/** Reads the whole body, or answers undefined as soon as it grows past `limit` bytes. */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    if (Number(req.headers["content-length"]) > limit) {
      resolve(undefined);
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) {
        chunks.push(chunk);
        return;
      }
      // Paused, the request emits no more data: the rest of the body is never read.
      req.pause();
      resolve(undefined);
    };
    req.on("data", onData);
    req.once("end", () => resolve(Buffer.concat(chunks)));
    req.once("error", reject);
  });
}

function answer(
  res: ServerResponse,
  status: number,
  body: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { "content-type": "text/plain; charset=utf-8", ...headers }).end(body);
}

/**
 * A request listener for Node's `http` (or `https`) server that receives webhook deliveries: it reads the
 * raw body (up to `maxBodyBytes`), then verifies, parses and processes it as `receiveDelivery` does.
 * Answers 200 when every item was processed or skipped as stale, 401 for a bad signature, 400 for a
 * malformed body, 413 for a body over the limit, 405 for a method other than POST, and 500 when
 * `handleItem` or the store failed; the service retries every answer but 200.
 *
 * The returned promise settles once the answer is sent and never rejects.
 *
 * @example
 * ```ts
 * import { createServer } from "node:http";
 * import { createNodeHandler, MemoryCounterStore } from "@service/pulumi/receiver";
 *
 * createServer(
 *   createNodeHandler({
 *     secrets: [process.env.WEBHOOK_SECRET!],
 *     // Its set never lowers a stored counter, as every store's must; it lasts as long as the process.
 *     store: new MemoryCounterStore(),
 *     handleItem: (item) => console.log(item.service_id, item.update_counter),
 *   }),
 * ).listen(8080);
 * ```
 */
export function createNodeHandler<V extends ApiVersion = "2.0">(
  options: NodeHandlerOptions<V>,
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  checkReceiverOptions(options, "createNodeHandler");
  const limit = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  if (!Number.isSafeInteger(limit) || limit <= 0) {
    throw new ConfigurationError(
      `createNodeHandler: maxBodyBytes must be a positive whole number of bytes, not ${limit}.`,
    );
  }
  const report = failureReporter(options);
  return async (req, res) => {
    try {
      if (req.method !== "POST") {
        // Node drains a body left unread once the answer is sent, so the connection stays usable.
        answer(res, 405, "only POST is accepted", { allow: "POST" });
        return;
      }
      const body = await readBody(req, limit);
      if (body === undefined) {
        const error = new Error(
          `Refused a webhook delivery larger than maxBodyBytes (${limit} bytes) with 413: the service will retry it, so raise maxBodyBytes if deliveries really are this large.`,
        );
        report({ status: 413, message: error.message, error });
        // Close the connection once answered rather than read the rest of an oversized body.
        res.once("finish", () => req.destroy());
        answer(res, 413, "body too large", { connection: "close" });
        return;
      }
      // Node joins a header sent twice into one string ("a, b"), which the check refuses as several values:
      // only set-cookie is ever an array.
      const signature = req.headers["service-signature"] as string | undefined;
      const result = await receiveDelivery(body, signature, options);
      answer(res, result.status, result.body);
    } catch {
      // The client went away mid-body, or onFailure threw: answer if the connection still allows it.
      if (!res.headersSent && !res.destroyed) answer(res, 500, "receiver failed");
    }
  };
}
