import { randomBytes } from "node:crypto";
import bcrypt from "bcryptjs";
import { argon2id, argon2Verify } from "hash-wasm";

/**
 * Passwords are hashed with argon2id (RFC 9106), a memory-hard function, with OWASP's minimum
 * parameters: 19 MiB of memory, 2 passes, 1 lane (OWASP Password Storage Cheat Sheet). Hashes are
 * stored in the PHC string format ("$argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>"), which carries
 * its parameters, so they can be raised later. bcrypt hashes from before ("$2a$", "$2b$", "$2y$")
 * are still accepted, and replaced by an argon2id hash at the next sign-in (lib/auth/index.ts).
 */
export const ARGON2_PARAMETERS = { memorySize: 19_456, iterations: 2, parallelism: 1, hashLength: 32 } as const;

const bcryptPattern = /^\$2[aby]\$\d{2}\$/;
const argon2Pattern = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$/;
/** argon2 hashes at most this many bytes of password (its own limit is 2^32 - 1; bcrypt stops at 72) */
const MAX_PASSWORD_BYTES = 4096;

export async function hashPassword(password: string): Promise<string> {
  if (Buffer.byteLength(password) > MAX_PASSWORD_BYTES) throw new RangeError(`a password has at most ${MAX_PASSWORD_BYTES} bytes`);
  return argon2id({ password, salt: randomBytes(16), ...ARGON2_PARAMETERS, outputType: "encoded" });
}

export interface PasswordCheck {
  ok: boolean;
  /** the hash is bcrypt, or argon2id with weaker parameters than ARGON2_PARAMETERS: store hashPassword(password) */
  needsRehash: boolean;
}

export async function checkPassword(password: string, hash: string): Promise<PasswordCheck> {
  if (Buffer.byteLength(password) > MAX_PASSWORD_BYTES) return { ok: false, needsRehash: false };
  const argon = argon2Pattern.exec(hash);
  if (argon) {
    const ok = await argon2Verify({ password, hash }).catch(() => false);
    const [memory, iterations, parallelism] = argon.slice(1).map(Number);
    const weaker = memory < ARGON2_PARAMETERS.memorySize || iterations < ARGON2_PARAMETERS.iterations || parallelism < ARGON2_PARAMETERS.parallelism;
    return { ok, needsRehash: ok && weaker };
  }
  if (bcryptPattern.test(hash)) {
    const ok = await bcrypt.compare(password, hash);
    return { ok, needsRehash: ok };
  }
  return { ok: false, needsRehash: false };
}

export async function verifyPassword(password: string, hash: string): Promise<boolean> {
  return (await checkPassword(password, hash)).ok;
}
