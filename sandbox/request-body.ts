import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { HttpError, invalid } from "./http-errors";
import { MAX_BODY_BYTES, MAX_JSON_NESTING } from "./limits";

const tooLarge = () =>
  new HttpError(
    413,
    "body_too_large",
    `the request body is larger than the sandbox's limit of ${MAX_BODY_BYTES} bytes (1 MiB); send a smaller body`,
    // No `connection: close`: Node would close the socket as soon as this answer is written, with the rest
    // of the body unread, and a client still uploading would get EPIPE instead of the answer. The server
    // reads and throws away the rest instead, until the client has sent it, for at most 64 MiB and with a
    // pause of at most 4 s (unread-body.ts, test/sandbox/unread-body.test.ts).
  );

/** Hono's own limit: from Content-Length, or counted while the body streams in. */
const streamedLimit = bodyLimit({
  maxSize: MAX_BODY_BYTES,
  onError: () => {
    throw tooLarge();
  },
});

/**
 * Refuses a body over MAX_BODY_BYTES with 413, whatever the method: a GET's body never reaches Hono (the
 * Fetch API gives a GET none), so its declared length is checked here before Node reads any of it.
 */
export const limitBodySize: MiddlewareHandler = async (c, next) => {
  if (Number(c.req.header("content-length")) > MAX_BODY_BYTES) throw tooLarge();
  return streamedLimit(c, next);
};

/** Whether `text` opens more than `limit` arrays and objects inside one another; strings are skipped. */
function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === "\\") i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === "[" || ch === "{") {
      depth++;
      if (depth > limit) return true;
    } else if (ch === "]" || ch === "}") depth--;
  }
  return false;
}

/**
 * A request body as JSON: undefined when it is blank, 400 `malformed_json` when it is not JSON, and 400
 * `invalid_parameters` when it nests deeper than MAX_JSON_NESTING. Counted without recursion, before
 * anything walks the parsed value.
 */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === "") return undefined;
  if (nestsDeeperThan(text, MAX_JSON_NESTING)) {
    const message = `nests arrays and objects more than ${MAX_JSON_NESTING} levels deep; the sandbox reads at most ${MAX_JSON_NESTING}`;
    throw invalid(`invalid parameters: (body) ${message}`, [{ field: "(body)", message }]);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, "malformed_json", "the request body is not valid JSON; send a JSON object");
  }
}
