import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/db";
import { issueToken, revokeToken } from "@/lib/auth/api-tokens";
import { updateUserAccount } from "@/lib/auth/users";
import { createEnactItems, createStudy, createUser, resetDatabase, addMember } from "@/tests/db-helpers";
import { call } from "@/tests/api/http";
import * as studies from "@/app/api/studies/route";
import * as dashboard from "@/app/api/studies/[slug]/dashboard/route";
import * as members from "@/app/api/studies/[slug]/members/route";
import * as tokens from "@/app/api/tokens/route";
import * as tokenById from "@/app/api/tokens/[id]/route";
import * as users from "@/app/api/admin/users/route";
import * as next from "@/app/api/annotate/studies/[slug]/next/route";
import * as assignment from "@/app/api/annotate/assignments/[id]/route";
import type { ApiScope } from "@/lib/http/scopes";

async function tokenFor(userId: string, scopes: ApiScope[], expiresInDays = 30) {
  return (await issueToken(userId, { name: "t", scopes, expiresInDays }, userId)).token;
}

describe("API tokens on the routes (lib/auth/api-tokens.ts, lib/http/route.ts)", () => {
  beforeEach(async () => {
    await resetDatabase();
  });
  afterAll(async () => {
    await disconnectDb();
  });

  it("acts as its user within its scopes: read reads, manage changes, and neither passes the other's routes", async () => {
    const researcher = await createUser("RESEARCHER");
    const read = await tokenFor(researcher.id, ["read"]);
    const manage = await tokenFor(researcher.id, ["manage"]);
    const created = await call(studies.POST, { token: manage, json: { title: "Scripted", slug: "scripted", overlap: 2 } });
    expect(created.status).toBe(201);
    expect(await db.study.findUniqueOrThrow({ where: { slug: "scripted" }, select: { createdById: true } })).toEqual({ createdById: researcher.id });
    const refused = await call(studies.POST, { token: read, json: { title: "Nope", slug: "nope", overlap: 1 } });
    expect(refused.status).toBe(403);
    expect((refused.body as { error: string }).error).toContain('lacks the scope "manage"');
    expect(await db.study.count({ where: { slug: "nope" } })).toBe(0);
    expect((await call(studies.GET, { token: read })).status).toBe(200);
    expect((await call(studies.GET, { token: manage })).status).toBe(403);
    const dash = await call(dashboard.GET, { token: read, path: "/api/studies/scripted/dashboard", params: { slug: "scripted" } });
    expect(dash.status).toBe(200);
    expect((dash.body as { study: { slug: string } }).study.slug).toBe("scripted");
    // a play-only token reaches none of the staff routes
    const play = await tokenFor(researcher.id, ["play"]);
    expect((await call(studies.GET, { token: play })).status).toBe(403);
  });

  it("keeps the user's role: a researcher's manage token cannot reach the admin's routes", async () => {
    const researcher = await createUser("RESEARCHER");
    const admin = await createUser("ADMIN");
    const token = await tokenFor(researcher.id, ["read", "manage"]);
    const denied = await call(users.POST, { token, json: { name: "X", email: "x@test.local", password: "password123", role: "ADMIN" } });
    expect(denied.status).toBe(403);
    expect(await db.user.count({ where: { email: "x@test.local" } })).toBe(0);
    const adminToken = await tokenFor(admin.id, ["read"]);
    expect((await call(users.GET, { token: adminToken })).status).toBe(200);
  });

  it("is refused once expired, revoked, or when its user is disabled; an unknown token is 401", async () => {
    const researcher = await createUser("RESEARCHER");
    const token = await tokenFor(researcher.id, ["read"]);
    expect((await call(studies.GET, { token })).status).toBe(200);
    const row = await db.apiToken.findFirstOrThrow({ where: { userId: researcher.id } });
    expect(row.lastUsedAt).not.toBeNull();
    expect(row.tokenHash).not.toContain(token.slice(3, 12));

    await db.apiToken.update({ where: { id: row.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const expired = await call(studies.GET, { token });
    expect(expired.status).toBe(401);
    expect((expired.body as { error: string }).error).toContain("expired");

    const second = await tokenFor(researcher.id, ["read"]);
    const secondId = (await db.apiToken.findFirstOrThrow({ where: { userId: researcher.id, id: { not: row.id } } })).id;
    await revokeToken(researcher.id, secondId);
    const revoked = await call(studies.GET, { token: second });
    expect(revoked.status).toBe(401);
    expect((revoked.body as { error: string }).error).toContain("revoked");

    const third = await tokenFor(researcher.id, ["read"]);
    await db.user.update({ where: { id: researcher.id }, data: { disabled: true } });
    expect((await call(studies.GET, { token: third })).status).toBe(401);
    expect((await call(studies.GET, { token: "ys_" + "x".repeat(43) })).status).toBe(401);
    expect((await call(studies.GET, { token: "not-ours" })).status).toBe(401);
    const audit = await db.auditLog.findMany({ where: { target: `user:${researcher.id}` }, select: { action: true } });
    expect(audit.map((a) => a.action).sort()).toEqual(["api-token.create", "api-token.create", "api-token.create", "api-token.revoke"]);
  });

  it("stays ended when a disabled account is enabled again: disabling revokes the account's tokens, as it ends its sessions", async () => {
    const admin = await createUser("ADMIN");
    const researcher = await createUser("RESEARCHER");
    const token = await tokenFor(researcher.id, ["read"]);
    expect((await call(studies.GET, { token })).status).toBe(200);
    await updateUserAccount(researcher.id, { disabled: true }, admin.id);
    expect((await call(studies.GET, { token })).status).toBe(401);
    await updateUserAccount(researcher.id, { disabled: false }, admin.id);
    const after = await call(studies.GET, { token });
    expect(after.status).toBe(401);
    expect((after.body as { error: string }).error).toContain("revoked");
    // a token made after the account is enabled again works
    expect((await call(studies.GET, { token: await tokenFor(researcher.id, ["read"]) })).status).toBe(200);
  });

  it("needs no same-site headers with a token, while a cookie request from another site is still refused", async () => {
    const researcher = await createUser("RESEARCHER");
    const token = await tokenFor(researcher.id, ["manage"]);
    const crossSite = { origin: "https://evil.example", "sec-fetch-site": "cross-site" };
    const withToken = await call(studies.POST, { token, json: { title: "From a notebook", slug: "notebook", overlap: 1 }, headers: crossSite });
    expect(withToken.status).toBe(201);
    const withCookie = await call(studies.POST, {
      json: { title: "Forged", slug: "forged", overlap: 1 },
      headers: { ...crossSite, cookie: "next-auth.session-token=whatever" },
    });
    expect(withCookie.status).toBe(403);
    expect((withCookie.body as { error: string }).error).toContain("changes are accepted only from Yardstick's own pages");
    expect(await db.study.count({ where: { slug: "forged" } })).toBe(0);
  });

  it("cannot make, list or revoke tokens (session only), and nobody revokes another user's token", async () => {
    const a = await createUser("RESEARCHER");
    const b = await createUser("RESEARCHER");
    const token = await tokenFor(a.id, ["read", "manage", "play"]);
    expect((await call(tokens.GET, { token })).status).toBe(403);
    expect((await call(tokens.POST, { token, json: { name: "more", scopes: ["read"] } })).status).toBe(403);
    const bToken = await issueToken(b.id, { name: "b's", scopes: ["read"], expiresInDays: 5 }, b.id);
    expect((await call(tokenById.DELETE, { token, method: "DELETE", params: { id: bToken.summary.id } })).status).toBe(403);
    await expect(revokeToken(a.id, bToken.summary.id)).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await db.apiToken.findUniqueOrThrow({ where: { id: bToken.summary.id } })).revokedAt).toBeNull();
  });

  it("reaches another user's study only as that user's cookie would: annotation work stays its owner's", async () => {
    const researcher = await createUser("RESEARCHER");
    const other = await createUser("RESEARCHER");
    const study = await createStudy({ createdById: other.id });
    const token = await tokenFor(researcher.id, ["read", "manage", "play"]);
    // researchers share studies (the cookie rule): reading another's study's members works, adding members is the admin's
    expect((await call(members.GET, { token, params: { slug: study.slug } })).status).toBe(200);
    expect((await call(members.POST, { token, params: { slug: study.slug }, json: { userIds: [researcher.id] } })).status).toBe(403);
    // an annotator's assignment is theirs alone: the researcher's play token is refused
    const annotator = await createUser("ANNOTATOR");
    await addMember(study.id, annotator.id);
    await createEnactItems(study.id, { count: 1 });
    const annotatorToken = await tokenFor(annotator.id, ["play"]);
    const got = await call(next.GET, { token: annotatorToken, params: { slug: study.slug } });
    expect(got.status).toBe(200);
    const assignmentId = (got.body as { assignment: { assignmentId: string } }).assignment.assignmentId;
    expect((await call(assignment.GET, { token: annotatorToken, params: { id: assignmentId } })).status).toBe(200);
    expect((await call(assignment.GET, { token, params: { id: assignmentId } })).status).toBe(403);
    expect((await call(next.GET, { token, params: { slug: study.slug } })).status).toBe(403);
  });

  it("limits each token's rate (429 with Retry-After)", async () => {
    const researcher = await createUser("RESEARCHER");
    const token = await tokenFor(researcher.id, ["read"]);
    process.env.YARDSTICK_API_RATE_PER_MINUTE = "60";
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) statuses.push((await call(studies.GET, { token })).status);
      expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200));
      expect(statuses[11]).toBe(429);
      const limited = await call(studies.GET, { token });
      expect(limited.response.headers.get("retry-after")).toBe("1");
      // another token of the same user has a bucket of its own
      expect((await call(studies.GET, { token: await tokenFor(researcher.id, ["read"]) })).status).toBe(200);
    } finally {
      delete process.env.YARDSTICK_API_RATE_PER_MINUTE;
    }
  });

  it("keeps the rate bucket in the database, so every app instance counts the same requests", async () => {
    const researcher = await createUser("RESEARCHER");
    const token = await tokenFor(researcher.id, ["read"]);
    expect((await call(studies.GET, { token })).status).toBe(200);
    // what another instance's requests leave behind: an empty bucket, just now
    await db.$executeRaw`UPDATE "ApiToken" SET "rateTokens" = 0, "rateAt" = clock_timestamp() WHERE "userId" = ${researcher.id}`;
    const limited = await call(studies.GET, { token });
    expect(limited.status).toBe(429);
    expect(Number(limited.response.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  });
});
