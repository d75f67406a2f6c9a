import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { connect } from "node:net";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { setTimeout as delay } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_UNREAD_BODY_BYTES, UNREAD_BODY_IDLE_MS } from "../../sandbox/unread-body";
import { usePlainSandbox } from "../helpers/plain-sandbox";

/**
 * Regressions: issue 27, item 11 (a 10 MB body to a create or to an admin route from another process ended
 * in EPIPE instead of the 413: the sandbox closed the connection with the rest of the body unread), and
 * issue 42, item 9 (it then read the rest for 500 ms only, and a client on a loaded machine still got
 * EPIPE in 6 tries of 10). The sandbox now reads and throws away the rest of a body it did not read until
 * the client has sent it, and closes the connection only after 64 MiB of it or 4 s without a byte.
 */
const plain = usePlainSandbox();

const CLIENT = join(__dirname, "../helpers/oversized-body-client.cjs");
const TRIES = 20;
const MiB = 1024 * 1024;

/** What each try of the separate client process got, one entry per try. */
function triesFromAnotherProcess(path: string, client: "http" | "undici" | "sequential"): Promise<unknown[]> {
  const child = spawn(process.execPath, [CLIENT, plain.sandbox.url, path, String(TRIES), client], {
    stdio: ["ignore", "pipe", "inherit"],
    // Three of them never outlive the test (150 s), whatever the sandbox does.
    timeout: 45_000,
  });
  let stdout = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk;
  });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", () =>
      resolve(
        stdout
          .trim()
          .split("\n")
          .filter(Boolean)
          .map((line) => JSON.parse(line)),
      ),
    );
  });
}

/**
 * One process spinning on each core, each killed after `timeoutMs` at the latest. Resolves once every one
 * of them is spinning; `stop` kills them.
 */
async function busyLoopOnEachCore(timeoutMs: number): Promise<{ stop(): void }> {
  const loops: ChildProcess[] = Array.from({ length: availableParallelism() }, () =>
    spawn(process.execPath, ["-e", 'process.stdout.write("spinning\\n"); for (;;);'], {
      stdio: ["ignore", "pipe", "ignore"],
      timeout: timeoutMs,
      killSignal: "SIGKILL",
    }),
  );
  const stop = () => {
    for (const loop of loops) loop.kill("SIGKILL");
  };
  try {
    await Promise.all(loops.map((loop) => once(loop.stdout!, "data")));
  } catch (error) {
    stop();
    throw error;
  }
  return { stop };
}

describe("a 10 MB body from a client in another process, with a busy loop on each core", () => {
  let load: { stop(): void } | undefined;
  let rssBefore = 0;
  beforeAll(async () => {
    load = await busyLoopOnEachCore(120_000);
    rssBefore = process.memoryUsage.rss();
  });
  afterAll(() => load?.stop());

  const refused = Array.from({ length: TRIES }, (_, i) => ({
    try: i + 1,
    status: 413,
    code: "body_too_large",
  }));

  it.each([
    ["a create (POST /v2/webhooks)", "/v2/webhooks"],
    ["an admin route (POST /_sandbox/sessions)", "/_sandbox/sessions"],
  ])(
    "to %s gets the 413 and its JSON error in 20 of 20 tries, with node:http, undici and a client that sends the whole body first",
    async (_name, path) => {
      expect(await triesFromAnotherProcess(path, "http")).toEqual(refused);
      expect(await triesFromAnotherProcess(path, "undici")).toEqual(refused);
      expect(await triesFromAnotherProcess(path, "sequential")).toEqual(refused);
    },
    150_000,
  );

  // 120 tries have sent 1.2 GB through the drain. What grows is the garbage the collector has not yet
  // taken, and the heap the other tests left (about 75 MiB, with the drain or without it). The drain's
  // own memory is measured exactly below ("is kept nowhere").
  it("leaves the sandbox's process less than 200 MiB larger after the 1.2 GB it threw away", () => {
    expect(process.memoryUsage.rss() - rssBefore).toBeLessThan(200 * MiB);
  });
});

const SANDBOX_ENTRY = join(__dirname, "../../dist/sandbox/index.js");
/** Starts the sandbox at argv[1], prints its URL, then the bytes its buffers hold after a GC per line read. */
const MEASURED_SANDBOX = `
require(process.argv[1]).startSandbox().then((sandbox) => {
  process.stdout.write(sandbox.url + "\\n");
  process.stdin.setEncoding("utf8").on("data", () => {
    globalThis.gc();
    process.stdout.write(process.memoryUsage().arrayBuffers + "\\n");
  });
});
`;

/** A request a raw client sends over one connection, and what it does with the body. */
interface RawUpload {
  /** `length`: Content-Length `declared`; `chunked`: Transfer-Encoding chunked. */
  readonly framing: "length" | "chunked";
  readonly declared?: number;
  /** Body bytes to write, in 64 KiB chunks, as fast as the socket takes them. */
  readonly send: number;
  /** The sandbox's URL, when not the one of this file. */
  readonly url?: string;
  readonly method?: string;
  readonly path?: string;
  /** Extra header lines, each ending in CRLF. */
  readonly headers?: string;
  /** After `after` bytes, wait for the first byte of the answer, then for `until`, then go on. */
  readonly pause?: { readonly after: number; readonly until: () => Promise<unknown> };
  /** End the body, then ask `GET /_sandbox` on the same connection (with `connection: close`). */
  readonly thenAskAgain?: boolean;
}

/** What the raw client saw. */
interface RawOutcome {
  /** Everything the sandbox sent back. */
  readonly answer: string;
  /** Body bytes the client handed to its socket. */
  readonly sent: number;
  /** The error its socket saw (EPIPE, ECONNRESET), if any. */
  readonly error: string | undefined;
  /** Milliseconds from the client's last write to the close of the connection. */
  readonly closedAfterQuietMs: number;
}

/** Resolves when the sandbox closes the connection; rejects if it is still open 15 s after the last write. */
function rawUpload(upload: RawUpload): Promise<RawOutcome> {
  const { port } = new URL(upload.url ?? plain.sandbox.url);
  const socket = connect(Number(port), "127.0.0.1");
  let answer = "";
  let sent = 0;
  let error: string | undefined;
  let lastWrite = Date.now();
  let deadline: NodeJS.Timeout | undefined;
  const chunked = upload.framing === "chunked";
  const write = (data: string | Buffer) => {
    lastWrite = Date.now();
    return socket.write(data);
  };
  socket.setEncoding("latin1");
  socket.on("data", (text: string) => {
    answer += text;
  });
  return new Promise<RawOutcome>((resolve, reject) => {
    socket.on("error", (e: NodeJS.ErrnoException) => {
      error = e.code;
    });
    socket.once("close", () => {
      clearTimeout(deadline);
      resolve({ answer, sent, error, closedAfterQuietMs: Date.now() - lastWrite });
    });
    const framing = chunked ? "transfer-encoding: chunked" : `content-length: ${upload.declared}`;
    write(
      `${upload.method ?? "POST"} ${upload.path ?? "/v2/webhooks"} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n${upload.headers ?? ""}${framing}\r\n\r\n`,
    );
    const bytes = Buffer.alloc(64 * 1024, 0x20);
    const chunk = chunked
      ? Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, Buffer.from("\r\n")])
      : bytes;
    const { pause } = upload;
    let paused = false;
    const writeMore = () => {
      // Bounded: at most `send` bytes, in whole chunks, and nothing once the sandbox has closed.
      while (sent < upload.send && !socket.destroyed) {
        if (pause && !paused && sent >= pause.after) {
          paused = true;
          const goOn = () => void pause.until().then(writeMore, reject);
          return void (answer === "" ? socket.once("data", goOn) : goOn());
        }
        sent += bytes.length;
        if (!write(chunk)) return void socket.once("drain", writeMore);
      }
      if (upload.thenAskAgain && !socket.destroyed) {
        write(
          `${chunked ? "0\r\n\r\n" : ""}GET /_sandbox HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n\r\n`,
        );
      }
      deadline = setTimeout(() => {
        socket.destroy();
        reject(
          new Error(`the connection was still open 15 s after the client's last write; it got:\n${answer}`),
        );
      }, 15_000);
    };
    writeMore();
  });
}

/** The status lines of the answers in `answer`, in order. */
const statuses = (answer: string) => [...answer.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));

describe("the rest of a body the sandbox did not read", () => {
  const AUTHORIZED = "authorization: Token any\r\n";
  /** The client's pause: longer than @hono/node-server's whole drain, shorter than UNREAD_BODY_IDLE_MS. */
  const oneSecond = () => delay(1_000);

  // Fails with a fixed drain of 500 ms (@hono/node-server's): the client pauses for a second after the
  // answer began to arrive, as a client on a loaded machine does.
  it.each<[string, RawUpload, number]>([
    [
      "a body refused from its Content-Length",
      { framing: "length", declared: 4 * MiB, send: 4 * MiB, headers: AUTHORIZED },
      413,
    ],
    [
      "a chunked body refused as it streams in",
      { framing: "chunked", send: 4 * MiB, headers: AUTHORIZED },
      413,
    ],
    // Nothing reads a GET's body (the Fetch API gives it none), and Node would discard it by itself.
    [
      "a GET's body refused from its Content-Length",
      { method: "GET", framing: "length", declared: 4 * MiB, send: 4 * MiB, headers: AUTHORIZED },
      413,
    ],
    ["a body no handler read (a 401)", { framing: "length", declared: 512 * 1024, send: 512 * 1024 }, 401],
  ])(
    "%s is read to its end across a 1 s pause, and the connection serves the next request",
    async (_name, upload, status) => {
      const outcome = await rawUpload({
        ...upload,
        pause: { after: upload.send / 2, until: oneSecond },
        thenAskAgain: true,
      });
      expect(outcome.error).toBeUndefined();
      expect(outcome.sent).toBe(upload.send);
      expect(statuses(outcome.answer)).toEqual([status, 200]);
      if (status === 413) expect(outcome.answer).toContain('"code":"body_too_large"');
    },
  );

  // Python's urllib asks for this on every request, and reads the answer only once it has sent the body.
  it("of a request that asked to close the connection is read to its end too, and then the connection is closed", async () => {
    const outcome = await rawUpload({
      framing: "length",
      declared: 4 * MiB,
      send: 4 * MiB,
      headers: `${AUTHORIZED}connection: close\r\n`,
      pause: { after: 2 * MiB, until: oneSecond },
    });
    expect(outcome.error).toBeUndefined();
    expect(outcome.sent).toBe(4 * MiB);
    expect(statuses(outcome.answer)).toEqual([413]);
    expect(outcome.answer).toContain('"code":"body_too_large"');
    // Closed because the body ended, not because it stopped arriving.
    expect(outcome.closedAfterQuietMs).toBeLessThan(UNREAD_BODY_IDLE_MS);
  });

  it(`closes the connection after ${UNREAD_BODY_IDLE_MS} ms without a byte of it`, async () => {
    // 4 MiB declared, 2 MiB sent, and then nothing.
    const outcome = await rawUpload({ framing: "length", declared: 4 * MiB, send: 2 * MiB });
    expect(statuses(outcome.answer)).toEqual([413]);
    expect(outcome.answer).toContain('"code":"body_too_large"');
    expect(outcome.sent).toBe(2 * MiB);
    // Not sooner (a client that pauses is waited for), and not much later: Node's own timeout of a quiet
    // connection, once its answer is written, would close it too, after 6 s.
    expect(outcome.closedAfterQuietMs).toBeGreaterThanOrEqual(UNREAD_BODY_IDLE_MS - 100);
    expect(outcome.closedAfterQuietMs).toBeLessThan(UNREAD_BODY_IDLE_MS + 900);
  }, 20_000);

  // How far past the bound the client gets before the close reaches it depends on the socket buffers; a
  // few MiB on loopback, never the whole body.
  it.each(["POST", "GET"])(
    `closes the connection after ${MAX_UNREAD_BODY_BYTES / MiB} MiB of a %s's body, however fast they come`,
    async (method) => {
      const size = 2 * MAX_UNREAD_BODY_BYTES;
      const outcome = await rawUpload({ method, framing: "length", declared: size, send: size });
      expect(statuses(outcome.answer)).toEqual([413]);
      expect(outcome.sent).toBeGreaterThan(MAX_UNREAD_BODY_BYTES);
      expect(outcome.sent).toBeLessThan(size);
    },
    60_000,
  );

  it("is kept nowhere: a sandbox 50 MiB into a body of 60 holds no more buffers than before it", async () => {
    // A sandbox of its own, whose buffers are counted after a full collection. Single-threaded: V8 otherwise
    // frees the buffers the collection found dead on another thread, and counts some of them for a while.
    const child = spawn(
      process.execPath,
      ["--expose-gc", "--single-threaded-gc", "-e", MEASURED_SANDBOX, SANDBOX_ENTRY],
      {
        stdio: ["pipe", "pipe", "inherit"],
        timeout: 50_000,
      },
    );
    try {
      const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
      const nextLine = async () => String((await lines.next()).value);
      const url = await nextLine();
      const buffers = async () => {
        child.stdin!.write("\n");
        return Number(await nextLine());
      };
      const before = await buffers();
      let during = 0;
      const outcome = await rawUpload({
        url,
        framing: "length",
        declared: 60 * MiB,
        send: 60 * MiB,
        headers: AUTHORIZED,
        // At least 40 MiB have reached the sandbox by then: the socket buffers between hold a few. Kept,
        // they would all show: a drain that keeps its chunks fails with 50 MiB here.
        pause: { after: 50 * MiB, until: async () => (during = await buffers()) },
        thenAskAgain: true,
      });
      expect(statuses(outcome.answer)).toEqual([413, 200]);
      expect(during - before).toBeLessThan(8 * MiB);
    } finally {
      child.kill();
    }
  }, 60_000);
});
