import bcrypt from "bcryptjs";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { authOptions } from "@/lib/auth";
import { db, disconnectDb } from "@/lib/db";
import { clientAddress, currentLockout, LOGIN_THROTTLE, PEER_HEADER, recordLoginFailure, trustedProxyHops } from "@/lib/auth/login-throttle";
import { createUser, resetDatabase } from "@/tests/db-helpers";

type Authorize = (credentials: Record<string, string>, request: { headers: Record<string, string> }) => Promise<{ id: string } | null>;

/** next-auth keeps the configured authorize() under `options` of the credentials provider. */
const authorize: Authorize = (credentials, request) =>
  (authOptions.providers[0] as unknown as { options: { authorize: Authorize } }).options.authorize(credentials, request);

const from = (address: string) => ({ headers: { "x-forwarded-for": address } });

async function signIn(email: string, password: string, address = "203.0.113.7"): Promise<string> {
  return authorize({ email, password }, from(address)).then(
    (user) => (user ? `ok:${user.id}` : "refused"),
    (error: Error) => error.message,
  );
}

describe("sign-in rate limiting and password hashes (lib/auth/index.ts, lib/auth/login-throttle.ts)", () => {
  beforeEach(async () => {
    await resetDatabase();
  });
  afterAll(async () => {
    await disconnectDb();
  });

  it("slows guessing of one account (a lock per network, a backoff across networks) without locking its owner out", async () => {
    const user = await createUser("ANNOTATOR", { email: "ann@throttle.test", password: "right-password" });
    // the owner signed in from home before
    expect(await signIn("ann@throttle.test", "right-password", "198.51.100.9")).toBe(`ok:${user.id}`);
    // an attacker's network: 5 failures lock that network out of this account for 15 minutes
    for (let i = 1; i < LOGIN_THROTTLE.maxFailuresPerPair; i++) expect(await signIn("ann@throttle.test", `wrong-${i}`)).toBe("refused");
    expect(await signIn("ann@throttle.test", "wrong-5")).toBe("locked:pair:15");
    expect(await signIn("ann@throttle.test", "right-password")).toBe("locked:pair:15");
    // ... and the account's backoff (seconds, not minutes) stops other networks guessing fast
    expect(await signIn("ann@throttle.test", "right-password", "192.0.2.200")).toMatch(/^wait:email:[12]$/);
    // the owner at home is not locked out
    expect(await signIn("ANN@throttle.test", "right-password", "198.51.100.9")).toBe(`ok:${user.id}`);
    // the backoff doubles with each failure and stops at a minute
    for (let i = 0; i < 12; i++) await recordLoginFailure("ann@throttle.test", `192.0.2.${10 + i}`);
    const row = await db.loginThrottle.findUniqueOrThrow({ where: { key: "email:ann@throttle.test" } });
    expect(row.lockedUntil!.getTime() - Date.now()).toBeGreaterThan(50_000);
    expect(row.lockedUntil!.getTime() - Date.now()).toBeLessThanOrEqual(LOGIN_THROTTLE.backoffMaxMs);
    // once it has passed, the right password works from a new network and clears the account's count
    await db.loginThrottle.update({ where: { key: "email:ann@throttle.test" }, data: { lockedUntil: new Date(Date.now() - 1000) } });
    expect(await signIn("ann@throttle.test", "right-password", "203.0.113.99")).toBe(`ok:${user.id}`);
    expect(await db.loginThrottle.findUnique({ where: { key: "email:ann@throttle.test" } })).toBeNull();
  });

  it("counts failures in a window: old failures expire", async () => {
    await createUser("ANNOTATOR", { email: "bo@throttle.test", password: "right-password" });
    for (let i = 0; i < LOGIN_THROTTLE.maxFailuresPerPair - 1; i++) await signIn("bo@throttle.test", "wrong");
    await db.loginThrottle.updateMany({
      where: { key: { in: ["pair:bo@throttle.test|203.0.113.7", "email:bo@throttle.test"] } },
      data: { windowStart: new Date(Date.now() - LOGIN_THROTTLE.windowMs - 1000) },
    });
    expect(await signIn("bo@throttle.test", "wrong")).toBe("refused");
    expect((await db.loginThrottle.findUnique({ where: { key: "pair:bo@throttle.test|203.0.113.7" } }))?.failures).toBe(1);
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
    expect(await currentLockout("race@throttle.test", "192.0.2.99")).toMatchObject({ scope: "pair" });
    expect(await currentLockout("race@throttle.test", "192.0.2.1")).toMatchObject({ scope: "email" });
  });

  it("takes the TCP peer, not a client's X-Forwarded-For, unless TRUST_PROXY names the proxies in front", () => {
    const peer = (address: string, forwarded?: string) => ({ [PEER_HEADER]: address, ...(forwarded ? { "x-forwarded-for": forwarded } : {}) });
    // no proxy configured: whatever the client writes into X-Forwarded-For is ignored
    expect(clientAddress(peer("203.0.113.5", "10.9.9.9"), 0)).toBe("203.0.113.5");
    expect(clientAddress(peer("203.0.113.5", "1.1.1.1, 2.2.2.2"), 0)).toBe("203.0.113.5");
    // one proxy (TRUST_PROXY=1): the entry it appended; what the client put before it is not believed
    expect(clientAddress(peer("10.0.0.2", "6.6.6.6, 198.51.100.20"), 1)).toBe("198.51.100.20");
    expect(clientAddress(new Headers(peer("10.0.0.2", "198.51.100.20")), 1)).toBe("198.51.100.20");
    // two proxies: the entry the outer one appended
    expect(clientAddress(peer("10.0.0.3", "6.6.6.6, 198.51.100.21, 10.0.0.2"), 2)).toBe("198.51.100.21");
    // a direct request to a server behind a proxy, with no header (Next.js filled it from the socket)
    expect(clientAddress(peer("198.51.100.22", "198.51.100.22"), 1)).toBe("198.51.100.22");
    // the setting
    expect(trustedProxyHops(undefined)).toBe(0);
    expect(trustedProxyHops("true")).toBe(1);
    expect(trustedProxyHops("2")).toBe(2);
    expect(() => trustedProxyHops("yes please")).toThrow(/TRUST_PROXY/);
    // not served by scripts/serve.mjs (no peer header, e.g. next dev): the last X-Forwarded-For entry
    expect(clientAddress({ "x-forwarded-for": "::1" }, 0)).toBe("::1");
    expect(clientAddress({}, 0)).toBe("unknown");
  });

  it("does not let a client pick its address for the limits by sending X-Forwarded-For", async () => {
    await createUser("ANNOTATOR", { email: "dee@throttle.test", password: "right-password" });
    const spoofing = (i: number) => ({ headers: { [PEER_HEADER]: "192.0.2.77", "x-forwarded-for": `10.1.1.${i}` } });
    for (let i = 0; i < LOGIN_THROTTLE.maxFailuresPerPair - 1; i++)
      expect(await authorize({ email: "dee@throttle.test", password: "wrong" }, spoofing(i)).catch((e: Error) => e.message)).toBeNull();
    expect(await authorize({ email: "dee@throttle.test", password: "wrong" }, spoofing(99)).catch((e: Error) => e.message)).toBe("locked:pair:15");
    expect(await db.loginThrottle.count({ where: { key: { startsWith: "ip:10.1.1." } } })).toBe(0);
  });

  it("accepts a bcrypt hash from before and replaces it with argon2id at sign-in", async () => {
    const user = await db.user.create({
      data: { email: "old@throttle.test", name: "Old hash", role: "ANNOTATOR", passwordHash: await bcrypt.hash("old-password", 4) },
    });
    expect(await signIn("old@throttle.test", "old-password")).toBe(`ok:${user.id}`);
    const stored = await db.user.findUniqueOrThrow({ where: { id: user.id }, select: { passwordHash: true } });
    expect(stored.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await signIn("old@throttle.test", "old-password")).toBe(`ok:${user.id}`);
    expect(await signIn("old@throttle.test", "wrong")).toBe("refused");
  });

  it("refuses disabled accounts and accounts without a password like unknown ones", async () => {
    await db.user.create({
      data: { email: "off@throttle.test", name: "Off", role: "ANNOTATOR", disabled: true, passwordHash: (await db.user.findFirst())?.passwordHash ?? null },
    });
    await db.user.create({ data: { email: "nopw@throttle.test", name: "Participant", role: "ANNOTATOR" } });
    expect(await signIn("off@throttle.test", "password")).toBe("refused");
    expect(await signIn("nopw@throttle.test", "")).toBe("refused");
    expect(await signIn("nopw@throttle.test", "anything")).toBe("refused");
    expect(await signIn("unknown@throttle.test", "anything")).toBe("refused");
  });
});
