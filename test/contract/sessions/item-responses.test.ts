/**
 * The item schemas (contract/sessions/item-responses.ts) read the items the sandbox answers by GET, in the
 * shape of each API version: the v2 status additions only in v2, and a compare fingerprint's parent whole
 * when owned, {} with a warning when not.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  AuthenticationItemV1Schema,
  AuthenticationItemV2Schema,
  FingerprintItemV1Schema,
  FingerprintItemV2Schema,
  ItemWarningSchema,
} from "../../../contract/sessions/item-responses";
import { type ReceiverWorld, startReceiverWorld } from "../../helpers/receiver-server";

const VERSIONS = ["1.4", "2.0"] as const;

describe.each(VERSIONS)("API %s items answered by GET, read by the item schemas", (version) => {
  let world: ReceiverWorld;
  beforeEach(async () => {
    world = await startReceiverWorld((_req, res) => res.writeHead(200).end());
  });
  afterEach(() => world.close());

  const prefix = version === "2.0" ? "/v2" : "/v1";
  const schemas =
    version === "2.0"
      ? { authentication: AuthenticationItemV2Schema, fingerprint: FingerprintItemV2Schema }
      : { authentication: AuthenticationItemV1Schema, fingerprint: FingerprintItemV1Schema };

  it("reads an authentication, with the v2 status additions only in v2", async () => {
    const { service_id } = await world.upsert({ kind: "authentication" });
    const got = await world.api("GET", `${prefix}/authentications/${service_id}`);
    const item = schemas.authentication.parse(got.json.item);
    expect(item).toMatchObject({ service_id, activity: { name: "authentication" }, timestamp: {} });
    expect("flag_reason_id" in item.status).toBe(version === "2.0");
  });

  it("reads a compare fingerprint's parent whole when owned, and {} with a warning when not", async () => {
    const owned = await world.upsert({ kind: "fingerprint" });
    const foreign = await world.upsert({ kind: "fingerprint", organization: "globex" });
    const compare = async (parentId: string) => {
      const { service_id } = await world.upsert({
        kind: "fingerprint",
        item: { activity: { mode: "compare" }, fingerprint_parent: { service_id: parentId } },
      });
      return (await world.api("GET", `${prefix}/fingerprints/${service_id}`)).json;
    };
    const whole = await compare(owned.service_id);
    expect(schemas.fingerprint.parse(whole.item).fingerprint_parent).toMatchObject({
      service_id: owned.service_id,
      url: expect.stringMatching(
        new RegExp(`^http://127\\.0\\.0\\.1:\\d+${prefix}/fingerprints/${owned.service_id}$`),
      ),
    });
    const hidden = await compare(foreign.service_id);
    expect(schemas.fingerprint.parse(hidden.item).fingerprint_parent).toEqual({});
    expect(hidden.warnings.map((w: unknown) => ItemWarningSchema.parse(w).code)).toEqual([
      "fingerprint_parent_not_authorized",
    ]);
  });
});
