import { describe, expect, it } from "vitest";
import { Domain } from "../../../contract/domains/responses";
import { domainRecord } from "../../../provider/domain/registered-domains";

describe("response shapes", () => {
  it("fill what the service left out: a domain's unnamed owner, and its creation time in either generation's name", () => {
    expect(domainRecord(Domain.parse({ domain_uuid: "d", domain_name: "h.example.com" })).owner).toEqual({
      organization: "",
      username: "",
    });
    // Each generation names the creation time its own way; the resources read either.
    const time = { display: "then", epoch: 1 };
    for (const key of ["create_time", "create_timestamp"]) {
      const domain = Domain.parse({ domain_uuid: "d", domain_name: "h.example.com", [key]: time });
      expect(domain).toMatchObject({ [key]: time });
      expect(domainRecord(domain).createTime).toEqual(time);
    }
  });
});
