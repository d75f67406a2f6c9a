/**
 * createNodeHandler (provider/receiver/node.ts): a signed delivery's raw body handed over unchanged, the
 * answers to a bad signature, a malformed body, another method and a body over maxBodyBytes, the
 * connection kept usable, and bad options refused when it is created.
 */
import { EventEmitter } from "node:events";
import {
  Agent,
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { ConfigurationError } from "../../../provider/errors/index";
import { createNodeHandler, type NodeHandlerOptions } from "../../../provider/receiver/index";
import { delivery, fingerprintItem as item, recorder, sign } from "../../helpers/delivery-items";

describe("the Node http handler", () => {
  let server: Server | undefined;
  afterEach(
    () =>
      new Promise<void>((resolve) => {
        server?.closeAllConnections();
        server ? server.close(() => resolve()) : resolve();
      }),
  );

  async function serve(options: NodeHandlerOptions): Promise<string> {
    server = createServer(createNodeHandler(options));
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  const post = (url: string, body: string | ReadableStream, headers: Record<string, string> = {}) =>
    fetch(url, { method: "POST", body, headers, duplex: "half" } as RequestInit);

  it("answers 200 to a signed delivery and hands the raw body over unchanged", async () => {
    const r = recorder();
    const url = await serve(r.options);
    // Non-ASCII text: any re-encoding of the body would break the signature.
    const raw = delivery({ ...item("a", 1), text_fields: { customer_item_id: "注文-ü" } });
    const response = await post(url, raw, { "service-signature": sign(raw) });
    expect([response.status, await response.text()]).toEqual([200, "ok"]);
    expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(r.handled).toEqual(["a@1"]);
  });

  it("accepts a body of exactly maxBodyBytes, declared or streamed", async () => {
    const r = recorder();
    const raw = delivery(item("a", 1));
    const url = await serve({ ...r.options, maxBodyBytes: Buffer.byteLength(raw) });
    // A string body is sent with its Content-Length; a stream in chunks, its length unknown until the end.
    const declared = await post(url, raw, { "service-signature": sign(raw) });
    const bytes = new TextEncoder().encode(raw);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.subarray(0, 10));
        controller.enqueue(bytes.subarray(10));
        controller.close();
      },
    });
    const streamed = await post(url, stream, { "service-signature": sign(raw) });
    expect([declared.status, streamed.status]).toEqual([200, 200]);
    expect(r.handled).toEqual(["a@1", "a@1"]);
  });

  it("answers 401, 400 and 500 for a bad signature, a malformed body and a failing function", async () => {
    const r = recorder(() => true);
    const url = await serve(r.options);
    const raw = delivery(item("a", 1));
    expect((await post(url, raw, { "service-signature": sign(raw, "x-other-secret") })).status).toBe(401);
    expect((await post(url, raw)).status).toBe(401);
    expect((await post(url, "[]", { "service-signature": sign("[]") })).status).toBe(400);
    expect((await post(url, raw, { "service-signature": sign(raw) })).status).toBe(500);
    expect(r.store.size).toBe(0);
  });

  /** Sends `requests` one after the other on one keep-alive connection: their statuses, and the sockets used. */
  async function onOneConnection(
    url: string,
    requests: { method: string; body: string; headers?: Record<string, string | string[]> }[],
  ) {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const answers: { status: number; socket: unknown }[] = [];
    try {
      for (const { method, body, headers = {} } of requests) {
        answers.push(
          await new Promise((resolve, reject) => {
            const req = httpRequest(url, { method, agent, headers }, (res) => {
              res.resume();
              res.on("end", () => resolve({ status: res.statusCode ?? 0, socket: req.socket }));
            });
            req.on("error", reject);
            req.end(body);
          }),
        );
      }
    } finally {
      agent.destroy();
    }
    return answers;
  }

  it("refuses a signature header sent twice, as Node joins the two values into one", async () => {
    const r = recorder();
    const url = await serve(r.options);
    const raw = delivery(item("a", 1));
    const [answer] = await onOneConnection(url, [
      { method: "POST", body: raw, headers: { "service-signature": [sign(raw), sign(raw)] } },
    ]);
    expect(answer!.status).toBe(401);
    expect(r.failures[0]!.message).toMatch(/carries several values/);
    expect(r.handled).toEqual([]);
  });

  it("answers 405 to other methods", async () => {
    const url = await serve(recorder().options);
    const response = await fetch(url);
    expect([response.status, response.headers.get("allow"), await response.text()]).toEqual([
      405,
      "POST",
      "only POST is accepted",
    ]);
  });

  it("keeps the connection usable after refusing another method with a body it did not read", async () => {
    const r = recorder();
    const url = await serve(r.options);
    const raw = delivery(item("a", 1));
    const answers = await onOneConnection(url, [
      { method: "PUT", body: "x".repeat(1024 * 1024) },
      { method: "POST", body: raw, headers: { "service-signature": sign(raw) } },
    ]);
    expect(answers.map((a) => a.status)).toEqual([405, 200]);
    expect(answers[1]!.socket).toBe(answers[0]!.socket);
    expect(r.handled).toEqual(["a@1"]);
  });

  it("refuses a body over maxBodyBytes with 413, declared or streamed, without reading it whole", async () => {
    const r = recorder();
    const url = await serve({ ...r.options, maxBodyBytes: 64 });
    expect((await post(url, "x".repeat(65))).status).toBe(413);
    // A chunked body of 256 MiB with no length: the handler must cut it off long before its end.
    const CHUNKS = 4096;
    let pulls = 0;
    const huge = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulls += 1;
        if (pulls > CHUNKS) controller.close();
        else controller.enqueue(new Uint8Array(64 * 1024));
      },
    });
    const streamed = await post(url, huge).then(
      (response) => response.status,
      () => "connection closed",
    );
    expect([413, "connection closed"]).toContain(streamed);
    expect(pulls).toBeLessThan(CHUNKS / 4);
    expect(r.failures.map((f) => f.status)).toEqual([413, 413]);
    expect(r.failures[0]!.message).toMatch(/maxBodyBytes \(64 bytes\)/);
  });

  it("still answers when onFailure throws", async () => {
    const url = await serve({
      ...recorder().options,
      onFailure: () => {
        throw new Error("logger down");
      },
    });
    const response = await post(url, "{}");
    expect([response.status, await response.text()]).toEqual([500, "receiver failed"]);
  });

  it("refuses bad options when it is created", () => {
    const { options } = recorder();
    expect(() => createNodeHandler({ ...options, secrets: [] })).toThrow(ConfigurationError);
    expect(() => createNodeHandler({ ...options, maxBodyBytes: 0 })).toThrow(/maxBodyBytes/);
    expect(() => createNodeHandler({ ...options, apiVersion: "1.3" as "1.4" })).toThrow(/apiVersion "1\.3"/);
  });

  it("refuses options without a function to call or a store to keep counters in", () => {
    const { options } = recorder();
    const needs =
      "createNodeHandler needs options.handleItem (a function) and options.store (a CounterStore, such as a MemoryCounterStore).";
    for (const broken of [
      { ...options, handleItem: undefined },
      { ...options, store: undefined },
      { ...options, store: { set: () => undefined } },
    ]) {
      expect(() => createNodeHandler(broken as unknown as NodeHandlerOptions)).toThrow(
        new ConfigurationError(needs),
      );
    }
  });
});

/**
 * A request the Node handler reads as a stream, over a body source that counts its reads: how much of the
 * body the handler took is then visible, without a socket's timing.
 */
function streamedRequest(chunks: readonly string[], headers: Record<string, string> = {}) {
  const body = [...chunks];
  let reads = 0;
  // A small buffer: a source read ahead of the handler would hide what the handler itself asked for.
  const request = new Readable({
    highWaterMark: 1,
    read() {
      reads += 1;
      this.push(body.shift() ?? null);
    },
  });
  Object.assign(request, { method: "POST", headers });
  return { request: request as IncomingMessage, reads: () => reads };
}

/** A response that records the one answer the handler writes; `destroyed` as when the client went away. */
class RecordedAnswer extends EventEmitter {
  status: number | undefined;
  headers: Record<string, string> | undefined;
  body: string | undefined;
  headersSent = false;
  constructor(readonly destroyed = false) {
    super();
  }
  writeHead(status: number, headers: Record<string, string>) {
    this.status = status;
    this.headers = headers;
    this.headersSent = true;
    return this;
  }
  end(body: string) {
    this.body = body;
    this.emit("finish");
    return this;
  }
  get response() {
    return this as unknown as ServerResponse;
  }
}

describe("the Node http handler, reading the request stream", () => {
  it("refuses a body whose declared length is over maxBodyBytes before reading any of it", async () => {
    const r = recorder();
    const { request, reads } = streamedRequest(["x".repeat(10)], { "content-length": "1000" });
    const answer = new RecordedAnswer();
    await createNodeHandler({ ...r.options, maxBodyBytes: 64 })(request, answer.response);
    expect([answer.status, answer.headers, answer.body]).toEqual([
      413,
      { "content-type": "text/plain; charset=utf-8", connection: "close" },
      "body too large",
    ]);
    expect(reads()).toBe(0);
    // Answered, the request is closed rather than read to its end.
    expect(request.destroyed).toBe(true);
    expect(r.failures.map((f) => f.status)).toEqual([413]);
  });

  it("stops reading a body without a declared length at the chunk that takes it over maxBodyBytes", async () => {
    const r = recorder();
    const chunks = Array.from({ length: 100 }, () => "x".repeat(16));
    const { request, reads } = streamedRequest(chunks);
    const answer = new RecordedAnswer();
    await createNodeHandler({ ...r.options, maxBodyBytes: 64 })(request, answer.response);
    expect(answer.status).toBe(413);
    // Five chunks take it over 64 bytes; the stream may buffer a little ahead, never the whole body.
    expect(reads()).toBeLessThan(10);
    expect(request.destroyed).toBe(true);
  });

  it("answers 500 when the request fails mid-body, and nothing once the client has gone away", async () => {
    for (const gone of [false, true]) {
      const r = recorder();
      const request = new Readable({ read() {} }) as IncomingMessage;
      Object.assign(request, { method: "POST", headers: {} });
      const answer = new RecordedAnswer(gone);
      const handled = createNodeHandler(r.options)(request, answer.response);
      request.push("{");
      request.destroy(new Error("aborted"));
      await handled;
      expect([answer.status, answer.body]).toEqual(gone ? [undefined, undefined] : [500, "receiver failed"]);
      expect(r.handled).toEqual([]);
    }
  });
});
