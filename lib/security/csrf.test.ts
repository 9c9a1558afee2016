import { describe, expect, it } from "vitest";
import { crossSiteRefusal, requestHost } from "@/lib/security/csrf";

const host = "yardstick.example:3000";
const headers = (values: Record<string, string>) => new Headers(values);

describe("crossSiteRefusal (CSRF)", () => {
  it("lets safe methods through whatever their origin", () => {
    for (const method of ["GET", "HEAD", "OPTIONS"]) {
      expect(crossSiteRefusal(method, headers({ origin: "https://evil.example", "sec-fetch-site": "cross-site" }), host)).toBeNull();
    }
  });

  it("refuses a state-changing request another site's page sends", () => {
    for (const method of ["POST", "PATCH", "PUT", "DELETE"]) {
      expect(crossSiteRefusal(method, headers({ "sec-fetch-site": "cross-site", origin: "https://evil.example" }), host)).toContain("cross-site");
      expect(crossSiteRefusal(method, headers({ origin: "https://evil.example" }), host)).toContain("https://evil.example");
    }
    // a sibling subdomain is "same-site" but not this origin
    expect(crossSiteRefusal("POST", headers({ "sec-fetch-site": "same-site", origin: "https://other.yardstick.example" }), host)).toContain("same-site");
    // sandboxed frames and some redirects send Origin: null
    expect(crossSiteRefusal("POST", headers({ origin: "null" }), host)).toContain("null");
    // the same host name on another port is another origin
    expect(crossSiteRefusal("POST", headers({ origin: "http://yardstick.example:4000" }), host)).not.toBeNull();
  });

  it("accepts the site's own pages, user-initiated navigations and non-browser clients", () => {
    expect(crossSiteRefusal("POST", headers({ "sec-fetch-site": "same-origin", origin: "http://yardstick.example:3000" }), host)).toBeNull();
    expect(crossSiteRefusal("POST", headers({ origin: "https://YARDSTICK.example:3000" }), host)).toBeNull();
    expect(crossSiteRefusal("POST", headers({ "sec-fetch-site": "none" }), host)).toBeNull();
    expect(crossSiteRefusal("POST", headers({}), host)).toBeNull();
  });

  it("reads the host a proxy forwarded", () => {
    expect(requestHost(headers({ host: "127.0.0.1:3000", "x-forwarded-host": "yardstick.example, proxy.internal" }))).toBe("yardstick.example");
    expect(requestHost(headers({ host: "127.0.0.1:3000" }))).toBe("127.0.0.1:3000");
  });
});
