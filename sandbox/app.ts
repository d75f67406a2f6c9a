import { type Context, Hono } from "hono";
import { toRouterPath } from "../contract/path";
import type { Route } from "../contract/routes";
import { ROUTES, type RouteName } from "../provider/client/index";
import { negotiateLanguage } from "./accept-language";
import { adminGuard } from "./admin-guard";
import { appendBounded } from "./bounded-log";
import type { ApiHandler, SandboxContext, SandboxEnv } from "./context";
import { HttpError, invalid } from "./http-errors";
import { controlCharacterIn } from "./inputs";
import { limitBodySize, parseJsonBody } from "./request-body";
import { ADMIN_ROUTES, mountAdmin } from "./routes/admin";
import { domainHandlers } from "./routes/domains";
import { mountImages } from "./routes/images";
import { integrationHandlers } from "./routes/integrations";
import { mountOpenApi, OPENAPI_ROUTE } from "./routes/openapi";
import { sessionHandlers } from "./routes/sessions";
import { webhookHandlers } from "./routes/webhooks";

const HANDLERS: Record<RouteName, ApiHandler> = {
  health: () => ({ status: "ok" }),
  ...webhookHandlers,
  ...domainHandlers,
  ...sessionHandlers,
  ...integrationHandlers,
};

type Env = SandboxEnv;

/**
 * The emulator as a Hono app: every route of the shared route table, behind the checks the spec puts in
 * front of all of them, in the order the service applies them.
 */
export function createSandboxApp(ctx: SandboxContext): Hono<Env> {
  const app = new Hono<Env>();

  app.onError((error, c) => {
    if (error instanceof HttpError) {
      for (const [k, v] of Object.entries(error.headers)) c.header(k, v);
      return c.json(error.body(), error.status as 400);
    }
    return c.json({ error: { code: "internal", message: "the sandbox failed to handle this request" } }, 500);
  });

  // Before any route, so that no route (admin, images, unknown) reads more than the limit.
  app.use("*", limitBodySize);
  app.use("*", adminGuard(ctx.admin));
  mountAdmin(app, ctx);
  mountImages(app, ctx);
  mountOpenApi(app);
  let requestCounter = 0;

  for (const name of Object.keys(ROUTES) as RouteName[]) {
    const route: Route = ROUTES[name];
    app.on(route.method, toRouterPath(route.path), (c) => {
      c.header("x-request-id", `req_${++requestCounter}`);
      return handleApi(c, ctx, route, HANDLERS[name]);
    });
  }

  const unrouted = (c: Context<Env>, status: number) =>
    appendBounded(ctx.requests, {
      method: c.req.method,
      path: c.req.path,
      route: undefined,
      status,
      at: ctx.clock.now(),
    });

  // A route's path asked with another method: 405 with the methods it takes (RFC 9110 15.5.6).
  const methods = new Map<string, Route["method"][]>();
  for (const route of Object.values(ROUTES)) {
    methods.set(route.path, [...(methods.get(route.path) ?? []), route.method]);
  }
  for (const [path, allowed] of methods) {
    app.all(toRouterPath(path), (c) => {
      unrouted(c, 405);
      throw new HttpError(
        405,
        "method_not_allowed",
        `${path} takes ${allowed.join(" or ")}, not ${c.req.method}: send ${allowed.join(" or ")} ${c.req.path}`,
        [],
        { allow: allowed.join(", ") },
      );
    });
  }

  // Fail loudly on anything unexpected, naming the request, so a wrong route shows up at once.
  app.notFound((c) => {
    unrouted(c, 404);
    return c.json(
      {
        error: {
          code: "unknown_route",
          message: `the sandbox has no route ${c.req.method} ${c.req.path}: send one of the routes listed in "routes"`,
          routes: [
            ...Object.values(ROUTES).map((r) => `${r.method} ${r.path}`),
            `GET ${OPENAPI_ROUTE}`,
            ...Object.keys(ADMIN_ROUTES),
          ],
        },
      },
      404,
    );
  });
  return app;
}

function tokenFrom(header: string | undefined): string | undefined {
  const match = /^Token\s+(\S+)\s*$/.exec(header ?? "");
  return match?.[1];
}

async function handleApi(
  c: Context<Env>,
  ctx: SandboxContext,
  route: Route,
  handler: ApiHandler,
): Promise<Response> {
  const record = (status: number) => {
    appendBounded(ctx.requests, {
      method: route.method,
      path: c.req.path,
      route: route.path,
      status,
      at: ctx.clock.now(),
    });
  };
  // The service's clock, as the Date header shows it: clients read it to compare the service's
  // timestamps with their own, and the sandbox's clock may be a test's ManualClock.
  c.header("date", new Date(ctx.clock.now()).toUTCString());
  const fault = ctx.faults.take(route.method, c.req.path);
  if (fault?.delayMs) await new Promise((r) => setTimeout(r, fault.delayMs));
  const injected = (status: number) => {
    record(status);
    if (fault?.retryAfter !== undefined) c.header("retry-after", String(fault.retryAfter));
    return c.json({ error: { code: "injected_fault", message: `injected ${status}` } }, status as 500);
  };
  if (fault?.status !== undefined && !fault.apply) return injected(fault.status);
  try {
    if (fault?.drop && !c.env?.incoming?.socket) {
      throw new HttpError(
        500,
        "drop_unsupported",
        "a drop fault needs the sandbox served by startSandbox or the bin, which own the connection",
      );
    }
    // Keyed by the token as read, so that spellings of one header share a window; requests without one
    // share the empty key, so that junk headers cannot make the limiter remember ever more keys.
    const presented = tokenFrom(c.req.header("authorization"));
    const wait = ctx.limiter.take(presented ?? "");
    if (wait !== undefined) {
      throw new HttpError(
        429,
        "rate_limited",
        `rate limit of ${ctx.settings.rateLimitPerSecond} requests per second for this token exceeded; retry after ${wait} s`,
        [],
        { "retry-after": String(wait) },
      );
    }
    const token = ctx.store.tokens.get(presented ?? "");
    if (!token) {
      throw new HttpError(
        401,
        "unauthorized",
        "the API token is missing or invalid; send Authorization: Token <API_TOKEN> with a token of the seed",
      );
    }
    const version = c.req.header("api-version");
    if (version === undefined || !route.accepts.includes(version)) {
      throw new HttpError(
        400,
        "invalid_headers",
        `Api-Version ${version === undefined ? "is missing" : `${version} is not accepted`}; ${route.path} takes ${route.accepts.join(" or ")}`,
      );
    }
    const language = negotiateLanguage(c.req.header("accept-language"));
    if (route.webhooksFeature && !token.webhooks) {
      throw new HttpError(
        403,
        "webhooks_not_enabled",
        "this API token does not have webhooks enabled; use a token with webhooks enabled (webhooks: true in the seed)",
      );
    }
    const body = route.method === "POST" ? parseJsonBody(await c.req.text()) : undefined;
    const params = c.req.param();
    const query = c.req.query();
    const control = controlCharacterIn(body) ?? controlCharacterIn({ ...params, ...query });
    if (control) throw invalid(`invalid parameters: ${control.field} ${control.message}`, [control]);
    const call = {
      token,
      version: route.version,
      params,
      query,
      body,
      language,
      origin: new URL(c.req.url).origin,
    };
    const result = await handler(call, ctx);
    if (fault?.status !== undefined) return injected(fault.status);
    record(200);
    if (fault?.drop) {
      // "Apply, then drop": the change is made, and the caller never hears of it.
      c.env.incoming!.socket.destroy();
    }
    return c.json(result as object, 200);
  } catch (error) {
    record(error instanceof HttpError ? error.status : 500);
    throw error;
  }
}
