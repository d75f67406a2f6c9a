/**
 * A call typed by its response schema. Apart from call.ts, whose declarations the client's public ones
 * reach: this one names zod's types, and only the areas' code imports it.
 */
import type { z } from "zod";
import type { Route } from "../../contract/routes";
import type { Call, Requester } from "./call";

/** Sends `call` through `api`: its response, typed by its schema. */
export function request<S extends z.ZodType>(
  api: Requester,
  route: Route,
  call: Call<S>,
): Promise<z.output<S>> {
  return api.send(route, call) as Promise<z.output<S>>;
}
