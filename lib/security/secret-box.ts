import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { AppError } from "@/lib/errors";

/**
 * Secrets Yardstick must use again later (a researcher's Prolific API token, a hook's signing
 * secret) are stored encrypted with AES-256-GCM (NIST SP 800-38D): a random 96-bit nonce per
 * value and its 128-bit tag, so a changed ciphertext fails to open instead of giving garbage.
 * The key is YARDSTICK_SECRET_KEY (32 bytes, base64 or hex); the stored form is
 * `v1.<key id>.<nonce>.<tag>.<ciphertext>` (base64url), the key id being the first bytes of the
 * key's SHA-256, so that a value sealed under another key is refused by name.
 *
 * Without the variable, development and tests use DEV_ONLY_SECRET_KEY below, which is public:
 * a production server (NODE_ENV=production) refuses to seal or open anything without a key of
 * its own.
 */

/** NOT A SECRET: the development and test key, refused in production. */
const DEV_ONLY_SECRET_KEY = "yardstick-dev-only-secret-key-not-for-production";

function keyBytes(): Buffer {
  const configured = process.env.YARDSTICK_SECRET_KEY?.trim();
  if (!configured) {
    if (process.env.NODE_ENV === "production")
      throw new AppError("UNAVAILABLE", "YARDSTICK_SECRET_KEY is not set: stored secrets (Prolific tokens) cannot be encrypted (docs/configuration.md)");
    return createHash("sha256").update(DEV_ONLY_SECRET_KEY).digest();
  }
  const key = /^[0-9a-f]{64}$/i.test(configured) ? Buffer.from(configured, "hex") : Buffer.from(configured, "base64");
  if (key.length !== 32) throw new AppError("UNAVAILABLE", "YARDSTICK_SECRET_KEY must be 32 bytes, in base64 or hex (e.g. `openssl rand -base64 32`)");
  return key;
}

function keyId(key: Buffer): string {
  return createHash("sha256").update(key).digest().subarray(0, 6).toString("base64url");
}

/** The stored form of a secret. */
export function sealSecret(plain: string): string {
  const key = keyBytes();
  const nonce = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, nonce);
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return ["v1", keyId(key), nonce.toString("base64url"), cipher.getAuthTag().toString("base64url"), body.toString("base64url")].join(".");
}

/** The secret of a stored form; throws when it was sealed under another key or was changed. */
export function openSecret(sealed: string): string {
  const parts = sealed.split(".");
  if (parts.length !== 5 || parts[0] !== "v1") throw new AppError("INVALID", "A stored secret is not in the v1 form");
  const key = keyBytes();
  if (parts[1] !== keyId(key)) throw new AppError("UNAVAILABLE", "A stored secret was encrypted under another YARDSTICK_SECRET_KEY: store it again");
  const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(parts[2], "base64url"));
  decipher.setAuthTag(Buffer.from(parts[3], "base64url"));
  try {
    return Buffer.concat([decipher.update(Buffer.from(parts[4], "base64url")), decipher.final()]).toString("utf8");
  } catch {
    throw new AppError("UNAVAILABLE", "A stored secret does not open (changed, or another key): store it again");
  }
}
