import { StatusOk as StatusOkSchema } from "../../../contract/answers";
import type { StatusOk } from "../../../contract/common-types";
import type { Requester } from "../call";

/** GET /v1/health (spec 4.2): tests the credentials and the service. */
export function health(api: Requester): Promise<StatusOk> {
  return api.send("health", { schema: StatusOkSchema });
}
