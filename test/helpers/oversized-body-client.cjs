// A client in a process of its own, as a user's is: it sends `tries` POSTs of a 10 MiB body, one after
// another, to `url` + `path` with node:http or undici, and prints one JSON line per try with what it got:
// `{ "try": 1, "status": 413, "code": "body_too_large" }`, or `{ "try": 1, "error": "EPIPE" }`.
// In-process tests never see a broken pipe: only a separate process has its own socket buffers and timing.
// `sequential` does what Python's urllib does: it asks to close the connection, sends the whole body, and
// only then reads the answer; a write that fails ends the try.
// Usage: node oversized-body-client.cjs <url> <path> <tries> <http|undici|sequential>
const http = require("node:http");
const net = require("node:net");
const { request } = require("undici");

const [url, path, tries, client] = process.argv.slice(2);
const BODY = Buffer.alloc(10 * 1024 * 1024, 0x20);
const HEADERS = { "content-type": "application/json", authorization: "Token any", "api-version": "2.0" };
/** No try may hang the test: each is given up after this long. */
const TRY_TIMEOUT_MS = 20_000;

/** The answer's status and error code, or the error the client saw instead. */
function viaHttp() {
  return new Promise((resolve) => {
    const target = new URL(path, url);
    const req = http.request(
      target,
      { method: "POST", headers: { ...HEADERS, "content-length": BODY.length }, timeout: TRY_TIMEOUT_MS },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk) => {
          text += chunk;
        });
        res.on("end", () => resolve(answer(res.statusCode, text)));
        res.on("error", (error) => resolve({ error: error.code ?? error.message }));
      },
    );
    req.on("timeout", () => req.destroy(new Error("timeout")));
    req.on("error", (error) => resolve({ error: error.code ?? error.message }));
    req.end(BODY);
  });
}

async function viaUndici() {
  try {
    const res = await request(new URL(path, url), {
      method: "POST",
      headers: HEADERS,
      body: BODY,
      headersTimeout: TRY_TIMEOUT_MS,
      bodyTimeout: TRY_TIMEOUT_MS,
    });
    return answer(res.statusCode, await res.body.text());
  } catch (error) {
    return { error: error.code ?? error.message };
  }
}

function viaSocket() {
  return new Promise((resolve) => {
    const target = new URL(path, url);
    const socket = net.connect(Number(target.port), target.hostname);
    const head = Object.entries({
      ...HEADERS,
      host: target.host,
      connection: "close",
      "content-length": BODY.length,
    })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join("");
    let text = "";
    socket.setTimeout(TRY_TIMEOUT_MS, () => socket.destroy(new Error("timeout")));
    socket.on("error", (error) => resolve({ error: error.code ?? error.message }));
    socket.write(`POST ${target.pathname} HTTP/1.1\r\n${head}\r\n`);
    socket.write(BODY, (error) => {
      if (error) return;
      // Sent whole: now the answer, up to the close.
      socket.setEncoding("latin1");
      socket.on("data", (chunk) => {
        text += chunk;
      });
      socket.on("end", () => {
        const [, status] = /^HTTP\/1\.1 (\d{3}) /.exec(text) ?? [];
        resolve(answer(Number(status), text.slice(text.indexOf("\r\n\r\n") + 4)));
      });
    });
  });
}

function answer(status, text) {
  try {
    return { status, code: JSON.parse(text).error?.code };
  } catch {
    return { status, body: text.slice(0, 80) };
  }
}

(async () => {
  for (let i = 1; i <= Number(tries); i++) {
    const got = await { http: viaHttp, undici: viaUndici, sequential: viaSocket }[client]();
    process.stdout.write(`${JSON.stringify({ try: i, ...got })}\n`);
  }
  // undici's pool keeps sockets open; the report is complete.
  process.exit(0);
})();
