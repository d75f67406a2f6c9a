import { resolve } from "node:path";
import { serveStatic } from "@hono/node-server/serve-static";
import type { Hono } from "hono";
import { negotiateLanguage } from "../accept-language";
import type { SandboxContext, SandboxEnv } from "../context";
import { parseWith } from "../context";
import { localize } from "../display";
import { FaultSpec } from "../faults";
import { parseJsonBody } from "../request-body";
import { SessionUpsert, upsertSession } from "../sessions";

/** The admin routes and what each does, as `GET /_sandbox` and the 404 answer list them. */
export const ADMIN_ROUTES = {
  "GET /_sandbox": "this list",
  "POST /_sandbox/sessions":
    "create or change a session and deliver it: {organization, kind, service_id?, user?, item?}",
  "GET /_sandbox/deliveries":
    "every delivery attempt: webhook, status, attempt number, signed body and its Service-Signature header",
  "GET /_sandbox/requests": "every API request: method, path, route template, status",
  "GET /_sandbox/state": "webhooks, domains, pending registrations and app users (no secrets)",
  "GET /_sandbox/images/:service_id/:name":
    "the images item answers link to: 200 while the URL is unexpired, 410 once expired, 403 if altered",
  "POST /_sandbox/faults":
    "arm a fault for the next N matching API requests: {method, path, count?, status?, apply?, retryAfter?, delayMs?, drop?}; path is a request path with the route's {parameters} filled in, or a prefix ending in *",
  "DELETE /_sandbox/faults": "disarm every fault",
  "GET /_sandbox/origin/*": "with --serve-dir: serve that folder (a stand-in webhook host)",
  "POST /_sandbox/origin/*": "with --serve-dir: accept a delivery with 200 (a stand-in receiver)",
} as const;

/**
 * A store record with its member names in the wire's snake_case (`createdAt` is `created_at`): every
 * admin answer, like the API and `upsertSession()`, follows the spec's naming rule.
 */
const snakeKeys = (record: object): Record<string, unknown> =>
  Object.fromEntries(
    Object.entries(record).map(([key, value]) => [
      key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`),
      value,
    ]),
  );

/** An admin request's JSON body; a blank one reads as `{}`. */
const jsonBody = (text: string): unknown => parseJsonBody(text) ?? {};

/** Test and demo controls. They take no API token: the sandbox only ever listens on loopback. */
export function mountAdmin(app: Hono<SandboxEnv>, ctx: SandboxContext): void {
  app.get("/_sandbox", (c) => c.json({ routes: ADMIN_ROUTES }));
  app.post("/_sandbox/sessions", async (c) => {
    const body = parseWith(SessionUpsert, jsonBody(await c.req.text()));
    const session = upsertSession(ctx, body);
    return c.json({
      service_id: session.serviceId,
      update_counter: session.updateCounter,
      // Displays as the API and deliveries show them (the stored item keeps bare ids, such as
      // "sandbox-brand", which no caller of the service ever sees).
      item: localize(session.item, negotiateLanguage(c.req.header("accept-language"))),
    });
  });
  app.get("/_sandbox/deliveries", (c) => c.json({ deliveries: ctx.deliverer.attempts }));
  app.get("/_sandbox/requests", (c) => c.json({ requests: ctx.requests }));
  app.get("/_sandbox/state", (c) =>
    c.json({
      webhooks: [...ctx.store.webhooks.values()].map(({ secretKey: _secret, ...rest }) => snakeKeys(rest)),
      domains: [...ctx.store.domains.values()].map(snakeKeys),
      pending: [...ctx.store.pending.values()].map(({ registerToken: _token, ...rest }) => snakeKeys(rest)),
      app_users: ctx.appUsers.all().map(snakeKeys),
    }),
  );
  app.post("/_sandbox/faults", async (c) => {
    ctx.faults.add(parseWith(FaultSpec, jsonBody(await c.req.text())));
    return c.json({ status: "ok" });
  });
  app.delete("/_sandbox/faults", (c) => {
    ctx.faults.clear();
    return c.json({ status: "ok" });
  });
  if (ctx.serveDir !== undefined) {
    const root = resolve(ctx.serveDir);
    app.get(
      "/_sandbox/origin/*",
      serveStatic({ root, rewriteRequestPath: (p) => p.replace(/^\/_sandbox\/origin/, "") }),
    );
    app.post("/_sandbox/origin/*", (c) => c.json({ received: true }));
  }
}
