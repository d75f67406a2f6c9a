import { describe, expect, it } from "vitest";
import { AcceptLanguage, ApiVersionSchema, BaseUrl, ConnectionInput } from "../../contract/connection";

describe("connection settings", () => {
  it("take an http(s) base URL, en or ja, 2.0 or 1.4, and a non-empty token, saying why otherwise", () => {
    for (const url of ["http://127.0.0.1:8787", "https://api.example.com/base"]) {
      expect(BaseUrl.safeParse(url).success).toBe(true);
    }
    for (const url of ["ftp://api.example.com", "httpsx://api.example.com", "xhttp://a.example.com"]) {
      expect(BaseUrl.safeParse(url).error?.issues[0]?.message).toBe("must be an http(s) URL");
    }
    expect(AcceptLanguage.safeParse("fr").error?.issues[0]?.message).toBe("must be en or ja");
    expect(ApiVersionSchema.safeParse("3.0").error?.issues[0]?.message).toBe("must be 2.0 or 1.4");
    expect(ConnectionInput.safeParse({ token: "" }).error?.issues[0]?.message).toBe("must not be empty");
  });
});
