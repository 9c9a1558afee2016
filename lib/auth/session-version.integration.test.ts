import { afterAll, beforeEach, describe, expect, it } from "vitest";
import type { JWT } from "next-auth/jwt";
import { authOptions } from "@/lib/auth";
import { db, disconnectDb } from "@/lib/db";
import { updateUserAccount } from "@/lib/auth/users";
import { createUser, resetDatabase } from "@/tests/db-helpers";

/**
 * Sessions can be revoked. next-auth's own callbacks, as its session
 * endpoint (/api/auth/session) and sign-out call them; lib/auth/session.ts compares the same version on
 * every request (tests/faults/security.faults.test.ts over HTTP).
 */

type JwtCallback = (params: { token: JWT; user?: { id: string } }) => Promise<JWT>;
const jwt = authOptions.callbacks!.jwt as unknown as JwtCallback;
const signOut = authOptions.events!.signOut as unknown as (message: { token: JWT }) => Promise<void>;

async function signedIn(userId: string): Promise<JWT> {
  return jwt({ token: { sub: userId }, user: { id: userId } });
}

/** what the session endpoint does with a cookie's token: "ok", or the error that makes it answer {} and clear the cookie */
async function sessionEndpoint(token: JWT): Promise<string> {
  return jwt({ token }).then(
    () => "ok",
    (error: Error) => error.message,
  );
}

describe("revocable sessions", () => {
  beforeEach(resetDatabase);
  afterAll(disconnectDb);

  it("signing out ends every session of the user, on every device; a new sign-in works", async () => {
    const user = await createUser("ANNOTATOR");
    const laptop = await signedIn(user.id);
    const phone = await signedIn(user.id);
    expect(await sessionEndpoint(laptop)).toBe("ok");
    await signOut({ token: laptop });
    expect(await sessionEndpoint(laptop)).toBe("session ended");
    expect(await sessionEndpoint(phone)).toBe("session ended");
    const again = await signedIn(user.id);
    expect(await sessionEndpoint(again)).toBe("ok");
  });

  it("disabling a user ends their sessions (the session endpoint no longer names them)", async () => {
    const admin = await createUser("ADMIN");
    const user = await createUser("ANNOTATOR");
    const token = await signedIn(user.id);
    await updateUserAccount(user.id, { disabled: true }, admin.id);
    expect(await sessionEndpoint(token)).toBe("session ended");
    // re-enabling does not bring the old session back
    await updateUserAccount(user.id, { disabled: false }, admin.id);
    expect(await sessionEndpoint(token)).toBe("session ended");
    expect((await db.user.findUniqueOrThrow({ where: { id: user.id } })).sessionVersion).toBe(1);
  });

  it("keeps sessions from before versions existed (no sv: version 0) until the first sign-out", async () => {
    const user = await createUser("ANNOTATOR");
    expect(await sessionEndpoint({ sub: user.id })).toBe("ok");
    await signOut({ token: { sub: user.id } });
    expect(await sessionEndpoint({ sub: user.id })).toBe("session ended");
  });
});
