/**
 * What audit makes of the states and the listing (provider/cli/audit-model.ts). Who holds an object: a URN
 * listed twice in one state is one holder (issue 46 found it reported as a conflict between a stack and
 * itself, with advice that would delete its only copy), while two resources of one stack that hold one
 * webhook are a conflict that names each resource. A domain one stack registered and another adopted is
 * shared, not a conflict (issue 42). A Webhook whose endpoint the program made secret is managed, and its
 * endpoint is not shown, though the listing shows it.
 */
import { describe, expect, it } from "vitest";
import type { Webhook } from "../../../contract/webhooks/types";
import { auditOrganization } from "../../../provider/cli/audit-model";
import { auditMarkdown } from "../../../provider/cli/audit-render";
import { readState } from "../../../provider/cli/state-export";
import { domainVerification, webhook } from "../../../provider/registry";
import { envelope } from "../../helpers/cli-inputs";

const UUID = "00000000-0000-4000-8000-000000000001";
const HOOK = "https://hooks.acme.test/service/events";
const urnOf = (name: string) => `urn:pulumi:dev::infra::${webhook.token}::${name}`;

/** A Webhook of stack dev, as `pulumi stack export` writes it. */
const resource = (name: string, uuid = UUID) => ({
  urn: urnOf(name),
  type: webhook.token,
  id: uuid,
  outputs: {
    webhookUuid: uuid,
    endpoint: HOOK,
    channel: "orders",
    filters: [{ key: "activity.name", value: "authentication" }],
    owner: { organization: "acme" },
  },
});

const stateOf = (...resources: object[]) =>
  readState("dev.json", JSON.stringify({ version: 3, deployment: { resources } }));

const listed: Webhook = {
  webhook_uuid: UUID,
  channel: "orders",
  endpoint: { type: "url", value: HOOK },
  filters: [{ key: "activity.name", value: "authentication" }],
  webhook_owner: { organization: { name: "acme" } },
};

function auditOf(webhooks: readonly Webhook[], ...resources: object[]) {
  const state = stateOf(...resources);
  const audit = auditOrganization(
    {
      organization: "acme",
      stacks: [state],
      webhooks: { items: webhooks, requests: 1 },
      domains: { items: [], requests: 1 },
    },
    [state],
  );
  const text = auditMarkdown({
    version: 1,
    organizations: [audit],
    deactivated: { webhooks: [], domains: [] },
    summary: { managed: 0, conflict: 0, orphaned: 0, drifted: 0, unmanaged: 0 },
    exitCode: 0,
  });
  return { audit, text };
}

describe("audit's holders", () => {
  it("counts a URN listed twice in one state as one holder: managed, and no advice deletes it (regression)", () => {
    const { audit, text } = auditOf([listed], resource("orders"), resource("orders"));
    expect(audit.webhooks).toHaveLength(1);
    expect(audit.webhooks[0]).toMatchObject({ status: "managed", next: null });
    expect(audit.webhooks[0]!.stacks).toEqual([
      {
        stack: "infra/dev",
        project: "infra",
        stackName: "dev",
        name: "orders",
        urn: urnOf("orders"),
        adopted: false,
      },
    ]);
    expect(text).not.toContain("state delete");
  });

  it("reports a webhook no longer listed once, however often its URN is in the state", () => {
    const { audit } = auditOf([], resource("orders"), resource("orders"));
    expect(audit.webhooks.map((w) => w.status)).toEqual(["drifted"]);
  });

  it("calls two resources of one stack that hold one webhook a conflict, naming each resource", () => {
    const { audit } = auditOf([listed], resource("orders"), resource("copy"));
    expect(audit.webhooks[0]).toMatchObject({
      status: "conflict",
      next: `each of \`infra/dev\` (\`orders\`) and \`infra/dev\` (\`copy\`) would change or delete it: keep it in \`infra/dev\` (\`orders\`), and remove it from the others: \`pulumi state delete ${urnOf("copy")} --stack dev --yes\` in project \`infra\`'s folder`,
    });
  });
});

describe("audit of a domain that stacks share", () => {
  const DOMAIN = "00000000-0000-4000-8000-0000000000d0";
  /** The DomainVerification of `stack`, which registered the domain or adopted it. */
  const verification = (stack: string, status: "registered" | "adopted") =>
    readState(
      `${stack}.json`,
      JSON.stringify({
        version: 3,
        deployment: {
          resources: [
            {
              urn: `urn:pulumi:${stack}::infra::${domainVerification.token}::hooks-verification`,
              type: domainVerification.token,
              id: DOMAIN,
              outputs: { domainUuid: DOMAIN, domainName: "hooks.acme.test", organization: "acme", status },
            },
          ],
        },
      }),
    );
  const auditDomain = (...states: ReturnType<typeof verification>[]) =>
    auditOrganization(
      {
        organization: "acme",
        stacks: states,
        webhooks: { items: [], requests: 1 },
        domains: { items: [{ domain_uuid: DOMAIN, domain_name: "hooks.acme.test" }], requests: 1 },
      },
      states,
    ).domains[0]!;

  it("calls it managed and shared when one stack registered it and the other adopted it", () => {
    const domain = auditDomain(verification("dev", "registered"), verification("staging", "adopted"));
    expect(domain.status).toBe("managed");
    expect(domain.next).toBe(
      "shared: `infra/dev` registered it, `infra/staging` adopted it and leaves it registered when destroyed. " +
        "Destroy `infra/staging` before `infra/dev`, whose destroy is refused while their webhooks target it; " +
        `or leave it to them: \`pulumi state delete urn:pulumi:dev::infra::${domainVerification.token}::hooks-verification --stack dev --yes\` in project \`infra\`'s folder`,
    );
  });

  it("calls it a conflict when two stacks each registered it, and keeps the adopters out of the advice", () => {
    const domain = auditDomain(
      verification("dev", "registered"),
      verification("prod", "registered"),
      verification("staging", "adopted"),
    );
    expect(domain.status).toBe("conflict");
    expect(domain.next).toMatch(/^each of `infra\/dev` and `infra\/prod` would change or delete it/);
    expect(domain.next).not.toContain("staging");
  });
});

describe("audit of a webhook whose endpoint the program made secret", () => {
  const SECRET_HOOK = "https://hooks.acme.test/service/token-in-the-path";

  it("does not show it, though the listing shows it", () => {
    const state = readState(
      "dev.json",
      JSON.stringify({
        version: 3,
        deployment: {
          resources: [
            {
              urn: urnOf("orders"),
              type: webhook.token,
              id: "u1",
              inputs: {
                endpoint: envelope("AAAA"),
                channel: "orders",
                filters: [{ key: "activity.name", value: "authentication" }],
              },
              outputs: { webhookUuid: "u1", owner: { organization: "acme" } },
            },
          ],
        },
      }),
    );
    const shown: Webhook = { ...listed, webhook_uuid: "u1", endpoint: { type: "url", value: SECRET_HOOK } };
    const audit = auditOrganization(
      {
        organization: "acme",
        stacks: [state],
        webhooks: { items: [shown], requests: 1 },
        domains: { items: [], requests: 1 },
      },
      [state],
    );
    expect(audit.webhooks[0]).toMatchObject({ status: "managed", secretEndpoint: true, endpoint: undefined });
    expect(JSON.stringify(audit)).not.toContain(SECRET_HOOK);
  });
});
