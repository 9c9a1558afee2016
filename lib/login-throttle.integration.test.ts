import bcrypt from "bcryptjs";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { authOptions } from "@/lib/auth";
import { db, disconnectDb } from "@/lib/db";
import { clientAddress, currentLockout, LOGIN_THROTTLE, recordLoginFailure } from "@/lib/login-throttle";
import { createUser, resetDatabase } from "@/tests/db-helpers";

type Authorize = (credentials: Record<string, string>, request: { headers: Record<string, string> }) => Promise<{ id: string } | null>;

/** next-auth keeps the configured authorize() under `options` of the credentials provider. */
const authorize: Authorize = (credentials, request) => (authOptions.providers[0] as unknown as { options: { authorize: Authorize } }).options.authorize(credentials, request);

const from = (address: string) => ({ headers: { "x-forwarded-for": address } });

async function signIn(email: string, password: string, address = "203.0.113.7"): Promise<string> {
  return authorize({ email, password }, from(address)).then(
    (user) => (user ? `ok:${user.id}` : "refused"),
    (error: Error) => error.message,
  );
}

describe("sign-in rate limiting and password hashes (lib/auth.ts, lib/login-throttle.ts)", () => {
  beforeEach(async () => {
    await resetDatabase();
  });
  afterAll(async () => {
    await disconnectDb();
  });

  it("locks an account after 5 failures in the window, refusing even the right password, and says for how long", async () => {
    const user = await createUser("ANNOTATOR", { email: "ann@throttle.test", password: "right-password" });
    for (let i = 1; i < LOGIN_THROTTLE.maxFailuresPerEmail; i++) expect(await signIn("ann@throttle.test", `wrong-${i}`)).toBe("refused");
    expect(await signIn("ann@throttle.test", "wrong-5")).toBe("locked:email:15");
    expect(await signIn("ANN@throttle.test", "right-password", "198.51.100.9")).toBe("locked:email:15");
    // the lock ends: the right password works again and clears the count
    await db.loginThrottle.update({ where: { key: "email:ann@throttle.test" }, data: { lockedUntil: new Date(Date.now() - 1000), windowStart: new Date(Date.now() - LOGIN_THROTTLE.windowMs - 1000) } });
    expect(await signIn("ann@throttle.test", "right-password")).toBe(`ok:${user.id}`);
    expect(await db.loginThrottle.findUnique({ where: { key: "email:ann@throttle.test" } })).toBeNull();
  });

  it("counts failures in a window: old failures expire", async () => {
    await createUser("ANNOTATOR", { email: "bo@throttle.test", password: "right-password" });
    for (let i = 0; i < LOGIN_THROTTLE.maxFailuresPerEmail - 1; i++) await signIn("bo@throttle.test", "wrong");
    await db.loginThrottle.update({ where: { key: "email:bo@throttle.test" }, data: { windowStart: new Date(Date.now() - LOGIN_THROTTLE.windowMs - 1000) } });
    expect(await signIn("bo@throttle.test", "wrong")).toBe("refused");
    expect((await db.loginThrottle.findUnique({ where: { key: "email:bo@throttle.test" } }))?.failures).toBe(1);
  });

  it("locks an address that sprays passwords over many accounts, and only that address", async () => {
    const address = "192.0.2.44";
    // all but the last failure counted directly (each sign-in costs an argon2id check, 0.1-0.2 s)
    for (let i = 0; i < LOGIN_THROTTLE.maxFailuresPerAddress - 2; i++) await recordLoginFailure(`nobody-${i}@throttle.test`, address);
    expect(await signIn("nobody-48@throttle.test", "Summer2026!", address)).toBe("refused");
    expect(await signIn("nobody-49@throttle.test", "Summer2026!", address)).toBe("locked:address:15");
    const real = await createUser("ANNOTATOR", { email: "cy@throttle.test", password: "right-password" });
    expect(await signIn("cy@throttle.test", "right-password", address)).toBe("locked:address:15");
    expect(await signIn("cy@throttle.test", "right-password", "192.0.2.45")).toBe(`ok:${real.id}`);
  });

  it("counts concurrent failures exactly (one upsert each)", async () => {
    await Promise.all(Array.from({ length: 12 }, () => recordLoginFailure("race@throttle.test", "192.0.2.99")));
    expect((await db.loginThrottle.findUnique({ where: { key: "email:race@throttle.test" } }))?.failures).toBe(12);
    expect((await db.loginThrottle.findUnique({ where: { key: "ip:192.0.2.99" } }))?.failures).toBe(12);
    expect(await currentLockout("race@throttle.test", "192.0.2.1")).toMatchObject({ scope: "email" });
  });

  it("takes the address the nearest proxy added (the last X-Forwarded-For entry)", () => {
    expect(clientAddress({ "x-forwarded-for": "10.0.0.1, 203.0.113.5" })).toBe("203.0.113.5");
    expect(clientAddress(new Headers({ "x-forwarded-for": "::1" }))).toBe("::1");
    expect(clientAddress({})).toBe("unknown");
  });

  it("accepts a bcrypt hash from before and replaces it with argon2id at sign-in", async () => {
    const user = await db.user.create({ data: { email: "old@throttle.test", name: "Old hash", role: "ANNOTATOR", passwordHash: await bcrypt.hash("old-password", 4) } });
    expect(await signIn("old@throttle.test", "old-password")).toBe(`ok:${user.id}`);
    const stored = await db.user.findUniqueOrThrow({ where: { id: user.id }, select: { passwordHash: true } });
    expect(stored.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await signIn("old@throttle.test", "old-password")).toBe(`ok:${user.id}`);
    expect(await signIn("old@throttle.test", "wrong")).toBe("refused");
  });

  it("refuses disabled accounts and accounts without a password like unknown ones", async () => {
    await db.user.create({ data: { email: "off@throttle.test", name: "Off", role: "ANNOTATOR", disabled: true, passwordHash: (await db.user.findFirst())?.passwordHash ?? null } });
    await db.user.create({ data: { email: "nopw@throttle.test", name: "Participant", role: "ANNOTATOR" } });
    expect(await signIn("off@throttle.test", "password")).toBe("refused");
    expect(await signIn("nopw@throttle.test", "")).toBe("refused");
    expect(await signIn("nopw@throttle.test", "anything")).toBe("refused");
    expect(await signIn("unknown@throttle.test", "anything")).toBe("refused");
  });
});
