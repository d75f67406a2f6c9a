import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";

/**
 * How long the rest of an unread request body may pause before the sandbox stops waiting for it and closes
 * the connection: 4 s without a byte. Refreshed by every chunk, so a slow client on a loaded machine is
 * waited for, and a client that stopped sending is not. Below Node's own timeout of a quiet connection
 * once its answer is written (the keep-alive timeout, 5 s, plus 1 s).
 */
export const UNREAD_BODY_IDLE_MS = 4_000;

/** The most of an unread request body the sandbox reads and throws away before closing the connection. */
export const MAX_UNREAD_BODY_BYTES = 64 * 1024 * 1024;

/**
 * Once the answer to a request is written, reads and throws away whatever is left of its body: the rest of
 * a body refused with 413, or a body no handler read (a 401 on a POST). A client still uploading then
 * reads the answer, not a broken pipe. The drain keeps no chunk, and closes the connection after
 * `MAX_UNREAD_BODY_BYTES`, or after `UNREAD_BODY_IDLE_MS` without a byte; otherwise the connection serves
 * the next request.
 *
 * A client that asked to close the connection (`Connection: close`, as Python's urllib always does) has it
 * closed once both its body and the answer are through, not as soon as the answer is: Node would close it
 * with the body still arriving, and the client would get a broken pipe instead of the answer. Its answer
 * therefore says `Connection: keep-alive`, and this closes the connection instead of Node.
 *
 * Replaces @hono/node-server's own clean-up (`autoCleanupIncoming`, which must be off), which gives the
 * rest 500 ms in all and stalls on a body Hono began to read: a loaded client missed the 413 (issue 42).
 * Added before the adapter's request listener (see `listen` in index.ts).
 */
export function drainUnreadBodies(server: Server): void {
  server.on("request", (incoming: IncomingMessage, outgoing: ServerResponse) => {
    const closeAfterBody = !outgoing.shouldKeepAlive && hasBody(incoming);
    if (closeAfterBody) outgoing.shouldKeepAlive = true;
    // Before the server's own 'finish' listener: that one discards an unread body itself, unbounded in
    // time and bytes, and once it has, no byte reaches a listener here.
    outgoing.prependOnceListener("finish", () => drain(incoming, closeAfterBody));
  });
}

function hasBody(incoming: IncomingMessage): boolean {
  const length = incoming.headers["content-length"];
  return (
    incoming.headers["transfer-encoding"] !== undefined || (length !== undefined && Number(length) !== 0)
  );
}

/** Ends the connection, and closes it once what was written to it has gone. */
function closeConnection(socket: Socket): void {
  if (socket.destroyed) return;
  if (socket.writableFinished) return void socket.destroy();
  socket.once("finish", () => socket.destroy());
  socket.end();
}

function drain(incoming: IncomingMessage, closeAfterBody: boolean): void {
  const socket = incoming.socket;
  if (incoming.readableEnded || incoming.destroyed) {
    if (closeAfterBody) closeConnection(socket);
    return;
  }
  let bytes = 0;
  const stop = () => {
    clearTimeout(idle);
    incoming.off("data", onData);
    incoming.off("end", ended);
    incoming.off("close", stop);
  };
  const giveUp = () => {
    stop();
    closeConnection(socket);
  };
  const ended = () => {
    stop();
    if (closeAfterBody) closeConnection(socket);
  };
  const onData = (chunk: Buffer) => {
    bytes += chunk.length;
    if (bytes > MAX_UNREAD_BODY_BYTES) giveUp();
    else idle.refresh();
  };
  const idle = setTimeout(giveUp, UNREAD_BODY_IDLE_MS);
  idle.unref();
  // A body Hono began to read and then abandoned (the 413 while it streams in) still has the listener of
  // its web stream, which would keep every chunk and pause the socket again. The answer is written and
  // nobody reads that stream any more; Node's own discard of an unread body removes it the same way.
  incoming.removeAllListeners("data");
  incoming.on("data", onData);
  incoming.once("end", ended);
  incoming.once("close", stop);
  incoming.resume();
}
