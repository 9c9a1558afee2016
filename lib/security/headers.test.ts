import { describe, expect, it } from "vitest";
import { pageContentSecurityPolicy } from "@/lib/security/headers";

function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy
      .split(";")
      .map((part) => part.trim().split(/\s+/))
      .map(([name, ...values]) => [name, values]),
  );
}

describe("pageContentSecurityPolicy", () => {
  it("allows scripts only with the request's nonce, and no framing", () => {
    const policy = directives(pageContentSecurityPolicy("abc123"));
    expect(policy.get("script-src")).toEqual(["'self'", "'nonce-abc123'", "'strict-dynamic'"]);
    expect(policy.get("script-src")).not.toContain("'unsafe-inline'");
    expect(policy.get("script-src")).not.toContain("'unsafe-eval'");
    expect(policy.get("default-src")).toEqual(["'self'"]);
    expect(policy.get("img-src")).toEqual(["'self'", "data:", "blob:"]);
    expect(policy.get("object-src")).toEqual(["'none'"]);
    expect(policy.get("frame-ancestors")).toEqual(["'none'"]);
    expect(policy.get("base-uri")).toEqual(["'self'"]);
    expect(policy.get("form-action")).toEqual(["'self'"]);
    expect(policy.has("upgrade-insecure-requests")).toBe(false);
  });

  it("adds eval only for the development server, and upgrades requests over https", () => {
    expect(directives(pageContentSecurityPolicy("n", { development: true })).get("script-src")).toContain("'unsafe-eval'");
    expect(directives(pageContentSecurityPolicy("n", { https: true })).has("upgrade-insecure-requests")).toBe(true);
  });

  it("allows images and media from the asset bucket only when assets redirect there", () => {
    expect(directives(pageContentSecurityPolicy("n")).has("media-src")).toBe(false);
    const policy = directives(pageContentSecurityPolicy("n", { assetOrigin: "https://media.example.org" }));
    expect(policy.get("img-src")).toEqual(["'self'", "data:", "blob:", "https://media.example.org"]);
    expect(policy.get("media-src")).toEqual(["'self'", "blob:", "https://media.example.org"]);
  });
});
