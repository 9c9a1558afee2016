import { randomUUID } from "node:crypto";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/db";
import { setItemRole } from "@/lib/studies/item-flags";
import { PATCH } from "@/app/api/studies/[slug]/items/[id]/route";
import { call } from "@/tests/api/http";
import { issueToken } from "@/lib/auth/api-tokens";
import { addMember, createEnactItems, createStudy, createUser, resetDatabase } from "@/tests/db-helpers";

/** Marking items practice / gold / ordinary from the study's page: the rules, the refusal once handed out, the dashboard's counts, the audit. */
describe("item roles", () => {
  beforeEach(resetDatabase);
  afterAll(disconnectDb);

  it("marks an unanswered item practice or gold (one of the two), counts it so on the dashboard, and audits it", async () => {
    const researcher = await createUser("RESEARCHER");
    const study = await createStudy();
    const [a, b] = await createEnactItems(study.id, { count: 2 });
    const counts = async () =>
      (
        await db.$queryRaw<
          Array<{ items: bigint; gold: bigint }>
        >`SELECT coalesce(sum(items), 0)::bigint AS items, coalesce(sum(gold), 0)::bigint AS gold FROM "ProgressItemCount" WHERE "studyId" = ${study.id}`
      )[0];
    expect(await counts()).toEqual({ items: 2n, gold: 0n });

    expect(await setItemRole(study.slug, a.id, "gold", researcher.id)).toEqual({ id: a.id, role: "gold", changed: true });
    expect(await counts()).toEqual({ items: 1n, gold: 1n });
    // practice clears gold: the queue treats a practice item as practice only
    await setItemRole(study.slug, a.id, "practice", researcher.id);
    expect(await db.item.findUniqueOrThrow({ where: { id: a.id }, select: { practice: true, gold: true } })).toEqual({ practice: true, gold: false });
    expect(await counts()).toEqual({ items: 1n, gold: 0n });
    expect(await setItemRole(study.slug, a.id, "practice", researcher.id)).toMatchObject({ changed: false });
    await setItemRole(study.slug, a.id, "ordinary", researcher.id);
    expect(await counts()).toEqual({ items: 2n, gold: 0n });
    const audit = await db.auditLog.findMany({ where: { action: "item.role" }, orderBy: { createdAt: "asc" }, select: { actorId: true, detail: true } });
    expect(audit.map((row) => (row.detail as { to: string }).to)).toEqual(["gold", "practice", "ordinary"]);
    expect(audit[0]).toMatchObject({ actorId: researcher.id, detail: { from: "ordinary", to: "gold", externalId: a.externalId } });

    // an item of another study is not found through this one
    const other = await createStudy();
    await expect(setItemRole(other.slug, b.id, "gold", researcher.id)).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("refuses once the item was handed out or answered, saying why, and changes nothing", async () => {
    const researcher = await createUser("RESEARCHER");
    const annotator = await createUser("ANNOTATOR");
    const study = await createStudy();
    await addMember(study.id, annotator.id);
    const [answered, open, released] = await createEnactItems(study.id, { count: 3 });
    const assignment = await db.assignment.create({ data: { studyId: study.id, itemId: answered.id, userId: annotator.id, position: 0, status: "SUBMITTED" } });
    await db.response.create({
      data: {
        assignmentId: assignment.id,
        clientId: randomUUID(),
        answer: { order: [1, 2, 0] },
        confidenceRaw: 3,
        confidence: 0.5,
        wallMs: 1,
        activeMs: 1,
        score: {},
        correct: true,
      },
    });
    await db.assignment.create({ data: { studyId: study.id, itemId: open.id, userId: annotator.id, position: 1, status: "STARTED" } });
    await db.assignment.create({ data: { studyId: study.id, itemId: released.id, userId: annotator.id, position: 2, status: "RELEASED" } });

    await expect(setItemRole(study.slug, answered.id, "gold", researcher.id)).rejects.toMatchObject({
      code: "CONFLICT",
      message: expect.stringMatching(/has 1 answer given as an ordinary item: making it gold would change how it was scored/),
    });
    await expect(setItemRole(study.slug, open.id, "practice", researcher.id)).rejects.toMatchObject({
      code: "CONFLICT",
      message: expect.stringContaining("1 open assignment"),
    });
    // a released place was never answered: nothing of it is scored
    await expect(setItemRole(study.slug, released.id, "gold", researcher.id)).resolves.toMatchObject({ changed: true });
    expect(await db.item.findMany({ where: { id: { in: [answered.id, open.id] } }, select: { practice: true, gold: true } })).toEqual([
      { practice: false, gold: false },
      { practice: false, gold: false },
    ]);
    expect(await db.auditLog.count({ where: { action: "item.role" } })).toBe(1);

    // through the route: 409 with the message, 422 for an unknown role, 403 for an annotator
    const token = (await issueToken(researcher.id, { name: "notebook", scopes: ["manage"], expiresInDays: 1 }, researcher.id)).token;
    const patch = (id: string, json: unknown, as = token) =>
      call(PATCH, { method: "PATCH", path: `/api/studies/${study.slug}/items/${id}`, token: as, params: { slug: study.slug, id }, json });
    const refused = await patch(answered.id, { role: "practice" });
    expect(refused.status).toBe(409);
    expect(JSON.stringify(refused.body)).toContain("Create a new version of the study");
    expect((await patch(answered.id, { role: "both" })).status).toBe(422);
    const annotatorToken = (await issueToken(annotator.id, { name: "play", scopes: ["play"], expiresInDays: 1 }, annotator.id)).token;
    expect((await patch(answered.id, { role: "gold" }, annotatorToken)).status).toBe(403);
  });
});
