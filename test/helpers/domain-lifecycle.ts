import { expect } from "vitest";
import { UNKNOWN } from "../../provider/lifecycle/unknowns";
import { DIFF_NONE, DIFF_SOME, type DynamicHost } from "./dynamic-host";
import { HOOKS_TOKEN, HOST } from "./fixtures";
import type { World } from "./world";

const urn = (type: string, name: string) =>
  `urn:pulumi:dev::quickstart::service:index:Domain$pulumi-nodejs:dynamic/service:${type}::${name}`;

export interface DomainProviderTexts {
  readonly registration: string;
  readonly verification: string;
}

/** The engine's sequence for a Domain's two dynamic resources, over gRPC, with the file published between. */
export async function domainLifecycleOverGrpc(
  host: DynamicHost,
  texts: DomainProviderTexts,
  world: World,
): Promise<void> {
  await host.configure({
    "service:token": HOOKS_TOKEN,
    "service:baseUrl": world.sandbox.url,
    "service:hostOverrides": JSON.stringify({ [HOST]: world.origin.url }),
  });
  const regUrn = urn("DomainRegistration", "hooks-registration");
  const preview = await host.check(regUrn, {}, { __provider: texts.registration, domainName: UNKNOWN });
  expect(preview.failures).toEqual([]);
  const { inputs: regInputs } = await host.check(
    regUrn,
    {},
    { __provider: texts.registration, domainName: HOST },
  );
  const registration = await host.create(regUrn, regInputs);
  const reg = registration.properties;
  expect(reg.key).toBe(`service_url_registration/${reg.verifier}`);

  world.origin.files.set(`/${reg.key}`, { status: 200, body: reg.registerToken });

  const verUrn = urn("DomainVerification", "hooks-verification");
  const news = {
    __provider: texts.verification,
    domainName: HOST,
    verifier: reg.verifier,
    url: reg.url,
    registerToken: reg.registerToken,
    expiresAt: reg.expiresAt,
  };
  expect(
    (await host.check(verUrn, {}, { ...news, verifier: UNKNOWN, registerToken: UNKNOWN })).failures,
  ).toEqual([]);
  const { inputs } = await host.check(verUrn, {}, news);
  const verification = await host.create(verUrn, inputs);
  expect(verification.properties).toMatchObject({ domainUuid: verification.id, status: "registered" });
  expect(JSON.stringify(verification.properties)).not.toContain(reg.registerToken);
  expect((await host.diff(verUrn, verification.id, verification.properties, inputs)).changes).toBe(DIFF_NONE);
  const replaced = await host.diff(verUrn, verification.id, verification.properties, {
    ...inputs,
    verifier: "other",
  });
  expect(replaced).toMatchObject({ changes: DIFF_SOME, replaces: ["verifier"] });

  expect((await host.read(verUrn, verification.id, verification.properties)).id).toBe(verification.id);
  expect((await host.read(regUrn, registration.id, reg)).id).toBe(registration.id);

  await host.delete(verUrn, verification.id, verification.properties);
  await host.delete(regUrn, registration.id, reg);
  expect((await world.api("POST", "/v2/search/domains", { body: {} })).json.items).toEqual([]);
  expect(host.output()).not.toContain(reg.registerToken);
}

/** The body of a program that declares a Domain, for collecting its providers' serialized text. */
export const DOMAIN_PROGRAM = `
  const domain = new service.Domain("hooks", { domainName: "${HOST}", publish: service.directoryPublisher(require("os").tmpdir()) });
  return [domain.domainUuid];`;

export function providerTexts(
  registered: readonly { type: string; inputs: Record<string, unknown> }[],
): DomainProviderTexts {
  const text = (type: string) =>
    registered.find((r) => r.type.endsWith(`:${type}`))!.inputs.__provider as string;
  return { registration: text("DomainRegistration"), verification: text("DomainVerification") };
}
