import { v1 } from "../../contract/routes";
import { DOMAIN_ROUTES } from "./areas/domains";
import { INTEGRATION_ROUTES } from "./areas/integrations";
import { SESSION_ROUTES } from "./areas/sessions";
import { WEBHOOK_ROUTES } from "./areas/webhooks";

/** GET /v1/health (spec 4.2), the one route of no area: it tests the credentials and the service. */
export const HEALTH_ROUTE = v1("GET", "/v1/health");

/**
 * Every route of the API, gathered from the areas that declare them: the sandbox mounts a handler on
 * each, and the client reference lists each. Exported for the sandbox, which imports this package only
 * through its entry points; not part of the client's API.
 *
 * @internal
 */
export const ROUTES = {
  health: HEALTH_ROUTE,
  ...WEBHOOK_ROUTES,
  ...DOMAIN_ROUTES,
  ...SESSION_ROUTES,
  ...INTEGRATION_ROUTES,
} as const;

/**
 * The name of a route of the API.
 *
 * @internal
 */
export type RouteName = keyof typeof ROUTES;
