import { describe, expect, it } from "vitest";
import { UNKNOWN } from "../../../provider/lifecycle/unknowns";
import { analyzedResource } from "../../../provider/policy/analyzed";
import { readStack } from "../../../provider/policy/views";
import { hooks, stackOf, webhookOf } from "../../helpers/analyzed-stacks";
import {
  domain,
  foreignResource,
  policyResources,
  probeStacks,
  secret,
  webhook,
} from "../../helpers/analyzer";
import { HOOKS_TOKEN, OTHER_HOST, OTHER_TOKEN } from "../../helpers/fixtures";

describe("reading the analyzer's resources", () => {
  it("keeps this package's Webhooks and Domains and ignores everything else", () => {
    const stack = stackOf([foreignResource("bucket"), ...probeStacks.clean]);
    expect(stack.webhooks.map((w) => w.name)).toEqual(["auth", "prints"]);
    expect(stack.domains).toEqual([
      {
        urn: hooks.urn,
        name: "hooks",
        hostname: "hooks.acme.test",
        members: new Set([hooks.urn, ...hooks.children]),
      },
    ]);
  });

  it("takes a Domain's hostname from the component where it registers one, else from its steps", () => {
    const own = domain("own", UNKNOWN, { domainName: OTHER_HOST });
    const fromSteps = domain("steps", OTHER_HOST, { domainName: UNKNOWN });
    const unknown = domain("later", UNKNOWN);
    expect(
      stackOf([...own.resources, ...fromSteps.resources, ...unknown.resources]).domains.map(
        (d) => d.hostname,
      ),
    ).toEqual([OTHER_HOST, OTHER_HOST, undefined]);
  });

  it("takes the parent from the resource options where the analyzer links no parent resource", () => {
    const unlinked = policyResources(hooks.resources).map((r) => ({ ...r, parent: undefined }));
    expect(readStack(unlinked.map(analyzedResource)).domains).toEqual([
      expect.objectContaining({ urn: hooks.urn, hostname: "hooks.acme.test" }),
    ]);
  });

  it("counts a DomainVerification declared without the component as a Domain", () => {
    const solo = { ...domain("solo").resources[2]!, parent: undefined };
    expect(stackOf([solo]).domains).toEqual([
      { urn: solo.urn, name: "solo-verification", hostname: "hooks.acme.test", members: new Set([solo.urn]) },
    ]);
  });

  it("groups credentials by a hash of `connection`, never keeping the token", () => {
    const [plain, viaToken, sameToken, otherToken, later] = [
      webhook("a"),
      webhook("b", { connection: secret({ token: HOOKS_TOKEN }) }),
      webhook("c", { connection: secret({ token: HOOKS_TOKEN }) }),
      webhook("d", { connection: secret({ token: OTHER_TOKEN }) }),
      webhook("e", { connection: UNKNOWN }),
    ].map(webhookOf);
    expect(plain!.credentials).toEqual({ key: "default", viaConnection: false });
    expect(viaToken!.credentials).toEqual(sameToken!.credentials);
    expect(viaToken!.credentials?.key).not.toEqual(otherToken!.credentials?.key);
    expect(JSON.stringify([viaToken!.credentials, otherToken!.credentials])).not.toContain("token-");
    expect(later!.credentials).toBeUndefined();
  });

  it("reads the service's identity of a webhook: canonical filters, default channel, normalized URL", () => {
    const a = webhookOf(
      webhook("a", {
        endpoint: "https://HOOKS.acme.test:443/service/events",
        filters: [
          { key: "activity.form_factor", values: ["microscopic", "lightbox"] },
          { key: "activity.name", values: ["authentication"] },
        ],
      }),
    );
    const b = webhookOf(
      webhook("b", {
        channel: "default",
        filters: [
          { key: "activity.name", value: "authentication" },
          { key: "activity.form_factor", values: ["lightbox", "microscopic"] },
        ],
      }),
    );
    expect(a.host).toBe("hooks.acme.test");
    expect(a.inputs.channel).toBe("default");
    expect(a.identity).toBeDefined();
    expect(a.identity).toBe(b.identity);
  });

  it("leaves out what is unknown at preview and what the Webhook's check rejects", () => {
    const unknownEndpoint = webhookOf(webhook("a", { endpoint: UNKNOWN }));
    expect([unknownEndpoint.host, unknownEndpoint.identity]).toEqual([undefined, undefined]);
    const plainHttp = webhookOf(webhook("b", { endpoint: "http://hooks.acme.test/x" }));
    expect(plainHttp.host).toBeUndefined();
    const unknownVersion = webhookOf(webhook("c", { apiVersion: UNKNOWN }));
    expect(unknownVersion.inputs).not.toHaveProperty("endpoint");
    expect(unknownVersion.inputs).toHaveProperty("channel", "default");
    const nestedUnknown = webhookOf(webhook("d", { filters: [{ key: "activity.name", value: UNKNOWN }] }));
    expect(nestedUnknown.inputs.filters).toBeUndefined();
  });
});
