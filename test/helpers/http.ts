import { request } from "node:http";

/**
 * A plain HTTP caller for sandbox tests. It shares nothing with the package's client, so the two cannot
 * share a misreading of the spec.
 */
export interface PlainResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly json: any;
}

export interface PlainOptions {
  readonly token?: string | null;
  readonly version?: string | null;
  readonly body?: unknown;
  readonly rawBody?: string;
}

export function plainApi(baseUrl: string, defaults: { token: string; version?: string }) {
  return async (method: string, path: string, options: PlainOptions = {}): Promise<PlainResponse> => {
    const headers: Record<string, string> = { "content-type": "application/json" };
    const token = options.token === undefined ? defaults.token : options.token;
    if (token !== null) headers.authorization = `Token ${token}`;
    const version =
      options.version === undefined
        ? (defaults.version ?? (path.startsWith("/v1") ? "1.4" : "2.0"))
        : options.version;
    if (version !== null) headers["api-version"] = version;
    const body = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
    const response = await fetch(`${baseUrl}${path}`, { method, headers, body });
    const text = await response.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = text;
    }
    return { status: response.status, headers: response.headers, json };
  };
}

/** What sendExactly got back. */
export interface Answer {
  readonly status: number;
  readonly body: string;
}

/** One request with exactly these headers (fetch would not let a test set Host). */
export function sendExactly(
  sandbox: { readonly port: number },
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: "127.0.0.1", port: sandbox.port, method, path, headers, setHost: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}
