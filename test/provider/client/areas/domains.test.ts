import { describe, expect, it } from "vitest";
import { ConflictError, InvalidRequestError } from "../../../../provider/client/index";
import { hook, useHooksSandbox } from "../../../helpers/hooks-sandbox";

/** The domains area of ServiceClient against the sandbox. */

describe("domains", () => {
  const world = useHooksSandbox();
  const { client, registerDomain } = world;

  it("deactivates webhooks and domains", async () => {
    const c = client();
    const domain = await registerDomain(c);
    const made = await c.webhooks.create(hook());
    await expect(c.domains.deactivate(domain.domain_uuid)).rejects.toBeInstanceOf(ConflictError);
    await c.webhooks.deactivate(made.webhook_uuid);
    await c.domains.deactivate(domain.domain_uuid);
    await expect(c.domains.deactivate(domain.domain_uuid)).rejects.toBeInstanceOf(InvalidRequestError);
  });
});
