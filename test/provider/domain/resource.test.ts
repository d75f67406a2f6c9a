/** The domain steps' declarations (provider/domain/resource.ts): check and diff. */

import { beforeEach, describe, expect, it } from "vitest";
import { ProcessContext, processContext, setProcessContext } from "../../../provider/context/process";
import {
  registrationPlan as registrationPlanWith,
  verificationPlan as verificationPlanWith,
} from "../../../provider/domain/resource";
import { UNKNOWN } from "../../../provider/lifecycle/unknowns";
import { underProvider } from "../../helpers/runtime";

const registrationPlan = underProvider(registrationPlanWith);
const verificationPlan = underProvider(verificationPlanWith);

/**
 * The plans of a domain's two steps, what `pulumi preview` runs for them: check and diff, without the API.
 */
describe("check and diff", () => {
  beforeEach(() => {
    setProcessContext(new ProcessContext());
  });

  describe("domain registration plan", () => {
    const outputs = {
      domainName: "hooks.example.com",
      url: "https://hooks.example.com/service_url_registration/v",
      verifier: "v",
      key: "service_url_registration/v",
      registerToken: "register-token-0123456789",
      expiresAt: "2030-01-01T00:00:00Z",
    };

    it("remembers the connection token at check", async () => {
      const token = "domain-token-0123456789";
      await registrationPlan.check({}, { domainName: "hooks.example.com", connection: { token } });
      expect(processContext().secrets.redact(token)).toBe("[REDACTED]");
    });

    it("replaces the registration for another or an unknown hostname, and updates in place for credentials", async () => {
      expect(await registrationPlan.diff("id", outputs, { domainName: "hooks.example.com" })).toEqual({
        changes: false,
        replaces: [],
        deleteBeforeReplace: false,
      });
      for (const domainName of ["other.example.com", UNKNOWN]) {
        expect(await registrationPlan.diff("id", outputs, { domainName })).toEqual({
          changes: true,
          replaces: ["domainName"],
          deleteBeforeReplace: false,
        });
      }
      expect(
        await registrationPlan.diff("id", outputs, { domainName: "hooks.example.com", acceptLanguage: "ja" }),
      ).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
    });
  });

  describe("domain verification plan", () => {
    const outputs = {
      domainUuid: "d-1",
      domainName: "hooks.example.com",
      status: "registered",
      verifier: "v",
      url: "https://hooks.example.com/service_url_registration/v",
      expiresAt: "2030-01-01T00:00:00Z",
      timeout: 600,
    };
    const inputs = { domainName: "hooks.example.com", verifier: "v", timeout: 600 };

    it("asks for the registration's members unless it adopts, and remembers its secrets", async () => {
      const token = "verify-token-0123456789";
      const registerToken = "register-token-0123456789";
      const { failures } = await verificationPlan.check(
        {},
        { domainName: "hooks.example.com", connection: { token } },
      );
      expect(failures).toEqual(
        ["verifier", "url", "registerToken", "expiresAt"].map((field) => ({
          property: "",
          reason: `${field} is required unless adopt is true: pass the DomainRegistration's ${field} output, or use the Domain component, which does`,
        })),
      );
      await verificationPlan.check({}, { domainName: "hooks.example.com", registerToken });
      expect(processContext().secrets.redact(`${token} ${registerToken}`)).toBe("[REDACTED] [REDACTED]");
      expect(
        (await verificationPlan.check({}, { domainName: "hooks.example.com", adopt: true })).failures,
      ).toEqual([]);
    });

    it("replaces for another hostname, verifier or adopt mode, and updates in place for the timeout", async () => {
      expect(await verificationPlan.diff("d-1", outputs, inputs)).toEqual({
        changes: false,
        replaces: [],
        deleteBeforeReplace: false,
      });
      // A member left out of the inputs keeps its recorded value.
      expect((await verificationPlan.diff("d-1", outputs, { domainName: "hooks.example.com" })).changes).toBe(
        false,
      );
      for (const [key, value] of [
        ["domainName", "other.example.com"],
        ["verifier", "w"],
        ["adopt", true],
        ["verifier", UNKNOWN],
      ] as const) {
        expect(await verificationPlan.diff("d-1", outputs, { ...inputs, [key]: value })).toEqual({
          changes: true,
          replaces: [key],
          deleteBeforeReplace: false,
        });
      }
      expect(await verificationPlan.diff("d-1", outputs, { ...inputs, timeout: 60 })).toEqual({
        changes: true,
        replaces: [],
        deleteBeforeReplace: false,
      });
      expect((await verificationPlan.diff("d-1", outputs, { ...inputs, acceptLanguage: "ja" })).changes).toBe(
        true,
      );
    });
  });
});
