import bcrypt from "bcryptjs";
import { argon2id } from "hash-wasm";
import { describe, expect, it } from "vitest";
import { ARGON2_PARAMETERS, checkPassword, hashPassword, verifyPassword } from "@/lib/auth/passwords";

describe("passwords", () => {
  it("hashes with argon2id at OWASP's parameters, with a fresh salt each time", async () => {
    const first = await hashPassword("correct horse battery staple");
    const second = await hashPassword("correct horse battery staple");
    expect(first).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(first).not.toBe(second);
    expect(await checkPassword("correct horse battery staple", first)).toEqual({ ok: true, needsRehash: false });
    expect(await checkPassword("correct horse battery stapl", first)).toEqual({ ok: false, needsRehash: false });
  });

  it("accepts bcrypt hashes from before and asks for a rehash", async () => {
    const old = await bcrypt.hash("s3cret", 4);
    expect(await checkPassword("s3cret", old)).toEqual({ ok: true, needsRehash: true });
    expect(await checkPassword("S3cret", old)).toEqual({ ok: false, needsRehash: false });
    expect(await verifyPassword("s3cret", old.replace(/^\$2a\$/, "$2b$"))).toBe(true);
  });

  it("asks for a rehash of argon2id hashes made with less memory or fewer passes", async () => {
    const weak = await argon2id({
      password: "pw",
      salt: new Uint8Array(16).fill(7),
      ...ARGON2_PARAMETERS,
      memorySize: 1024,
      iterations: 1,
      outputType: "encoded",
    });
    expect(await checkPassword("pw", weak)).toEqual({ ok: true, needsRehash: true });
  });

  it("refuses hashes it does not know and over-long passwords", async () => {
    expect(await checkPassword("pw", "")).toEqual({ ok: false, needsRehash: false });
    expect(await checkPassword("pw", "plaintext-pw")).toEqual({ ok: false, needsRehash: false });
    expect(await checkPassword("pw", "$argon2id$v=19$m=19456,t=2,p=1$broken")).toEqual({ ok: false, needsRehash: false });
    expect(await checkPassword("x".repeat(5000), await hashPassword("x"))).toEqual({ ok: false, needsRehash: false });
    await expect(hashPassword("x".repeat(5000))).rejects.toThrow(RangeError);
  });
});
