import { configure } from "../../provider/runtime/index";
import { HOOKS_TOKEN } from "./fixtures";

/** Points the runtime at a sandbox the way `configure` does from stack config. */
export function configureStack(
  baseUrl: string,
  token = HOOKS_TOKEN,
  extra: Record<string, string> = {},
): void {
  const values: Record<string, string> = { "service:token": token, "service:baseUrl": baseUrl, ...extra };
  configure({ get: (key) => values[key] });
}
