import { StatusOk as StatusOkSchema } from "../../api/answers";
import type { StatusOk } from "../../api/shapes";
import type { Requester } from "../call";

/** GET /v1/health (spec 4.2): tests the credentials and the service. */
export function health(api: Requester): Promise<StatusOk> {
  return api.send("health", { schema: StatusOkSchema });
}
