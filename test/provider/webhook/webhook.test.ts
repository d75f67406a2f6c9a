/** The Webhook class (provider/webhook/webhook.ts) in a program, under Pulumi's mocks. */
import { beforeEach, describe, expect, it, vi } from "vitest";
import { HOOKS_TOKEN, HOST, SECRET } from "../../helpers/fixtures";
import { isSecret, mockedPulumi, reveal, settled } from "../../helpers/mocks";
import { useRegisteredWorld } from "../../helpers/world";

describe("the class in a program", () => {
  const PLANTED_TOKEN = "planted-stack-token-9d1e7c";
  const PLANTED_CONNECTION = "planted-connection-token-4b2a";
  const PLANTED_ENV = "planted-env-token-61f0aa";

  const worldRef = useRegisteredWorld();

  let pulumi: ReturnType<typeof mockedPulumi>["pulumi"];
  let service: ReturnType<typeof mockedPulumi>["service"];
  let registered: ReturnType<typeof mockedPulumi>["registered"];

  /** Each test runs the program afresh, with credentials planted where the provider text must not capture them. */
  beforeEach(async () => {
    vi.stubEnv("SERVICE_API_TOKEN", PLANTED_ENV);
    ({ pulumi, service, registered } = mockedPulumi({ config: { "service:token": PLANTED_TOKEN } }));
    await settled(
      pulumi,
      program().map((h) => h.urn),
    );
  });

  function program() {
    const endpoint = `https://${HOST}/service/events`;
    return [
      new service.Webhook("auth", {
        endpoint,
        secretKey: pulumi.secret(SECRET),
        filters: [{ key: "activity.name", value: "authentication" }],
      }),
      new service.Webhook("prints", {
        endpoint,
        secretKey: SECRET,
        channel: "prints",
        filters: [
          { key: "activity.name", value: "fingerprint" },
          { key: "activity.form_factor", values: ["lightbox", "microscopic"] },
        ],
      }),
      new service.Webhook("legacy", {
        endpoint,
        secretKey: `${SECRET}-legacy`,
        apiVersion: "1.4",
        connection: { token: PLANTED_CONNECTION },
        filters: [{ key: "activity.name", value: "authentication" }],
      }),
    ];
  }

  describe("a program with three webhooks, under setMocks", () => {
    it("registers each with its inputs and the secret flags of secretKey and connection", async () => {
      const webhooks = registered.filter((r) => r.type === "pulumi-nodejs:dynamic/service:Webhook");
      expect(webhooks.map((r) => r.name)).toEqual(["auth", "prints", "legacy"]);
      for (const r of webhooks) {
        expect(isSecret(r.inputs.secretKey), `${r.name} secretKey`).toBe(true);
        expect(r.inputs.webhookUuid).toBeUndefined();
      }
      expect(reveal(webhooks[1]!.inputs.secretKey)).toBe(SECRET);
      expect(webhooks[1]!.inputs).toMatchObject({
        channel: "prints",
        endpoint: `https://${HOST}/service/events`,
      });
      expect(isSecret(webhooks[2]!.inputs.connection)).toBe(true);
      expect(webhooks[0]!.inputs.connection).toBeUndefined();
      expect(webhooks[2]!.inputs.apiVersion).toBe("1.4");
    });

    it("stores a provider text of under 450 bytes (the contract's sentence included) that holds none of the planted secrets", async () => {
      const texts = new Set(registered.map((r) => r.inputs.__provider as string).filter(Boolean));
      expect(texts.size).toBe(1);
      const [text] = [...texts];
      expect(text!.length).toBeLessThan(450);
      for (const planted of [PLANTED_TOKEN, PLANTED_CONNECTION, PLANTED_ENV, SECRET])
        expect(text).not.toContain(planted);
      expect(text).toContain('p="@service/pulumi/runtime"');
    });

    it("rebuilds from its serialized text and runs against the sandbox", async () => {
      const text = registered.find((r) => r.inputs.__provider)!.inputs.__provider as string;
      const requireFromString = require(
        require.resolve("require-from-string", {
          paths: [require.resolve("@pulumi/pulumi")],
        }),
      ) as (code: string) => { handler: () => Record<string, (...a: unknown[]) => Promise<any>> };
      const provider = requireFromString(text).handler();
      const config: Record<string, string> = {
        "service:token": HOOKS_TOKEN,
        "service:baseUrl": worldRef.current.sandbox.url,
      };
      await provider.configure!({ config: { get: (k: string) => config[k] } });
      const { inputs, failures } = await provider.check!(
        {},
        {
          endpoint: `https://${HOST}/service/events`,
          secretKey: SECRET,
          filters: [{ key: "activity.name", value: "authentication" }],
        },
      );
      expect(failures).toEqual([]);
      const { id, outs } = await provider.create!(inputs);
      expect(outs.webhookUuid).toBe(id);
      await provider.delete!(id, outs);
    });
  });
});
