import { afterEach, describe, expect, it } from "vitest";
import { openSecret, sealSecret } from "@/lib/security/secret-box";

const saved = { key: process.env.YARDSTICK_SECRET_KEY, env: process.env.NODE_ENV };
const env = process.env as Record<string, string | undefined>;

function restore(name: "YARDSTICK_SECRET_KEY" | "NODE_ENV", value: string | undefined) {
  if (value === undefined) delete env[name];
  else env[name] = value;
}

afterEach(() => {
  restore("YARDSTICK_SECRET_KEY", saved.key);
  restore("NODE_ENV", saved.env);
});

describe("secret box (AES-256-GCM)", () => {
  it("opens what it sealed, and seals the same secret differently each time", () => {
    const a = sealSecret("prolific-token-1234");
    const b = sealSecret("prolific-token-1234");
    expect(a).not.toBe(b);
    expect(a).not.toContain("prolific-token");
    expect(openSecret(a)).toBe("prolific-token-1234");
  });

  it("refuses a changed ciphertext", () => {
    const sealed = sealSecret("abcdef").split(".");
    const body = Buffer.from(sealed[4], "base64url");
    body[0] ^= 1;
    sealed[4] = body.toString("base64url");
    expect(() => openSecret(sealed.join("."))).toThrow(/does not open/);
  });

  it("refuses a value sealed under another key, by name", () => {
    env.YARDSTICK_SECRET_KEY = Buffer.alloc(32, 7).toString("base64");
    const sealed = sealSecret("abcdef");
    env.YARDSTICK_SECRET_KEY = Buffer.alloc(32, 8).toString("hex");
    expect(() => openSecret(sealed)).toThrow(/another YARDSTICK_SECRET_KEY/);
  });

  it("refuses the development key in production, and a key of the wrong length", () => {
    env.YARDSTICK_SECRET_KEY = "";
    env.NODE_ENV = "production";
    expect(() => sealSecret("x")).toThrow(/YARDSTICK_SECRET_KEY is not set/);
    env.YARDSTICK_SECRET_KEY = Buffer.alloc(16).toString("base64");
    expect(() => sealSecret("x")).toThrow(/32 bytes/);
  });
});
