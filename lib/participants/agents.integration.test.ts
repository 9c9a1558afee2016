import { randomUUID } from "node:crypto";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/db";
import { nextAssignment, progressFor, type NextAssignment } from "@/lib/assignment";
import { getStudyProgress } from "@/lib/dashboard/progress";
import { parseCsv } from "@/lib/exports/csv";
import { createStudyExport, pseudonymousId } from "@/lib/exports/study-export";
import { createAgent } from "@/lib/participants/agents";
import { submitResponse } from "@/lib/responses/responses";
import { addMember, createEnactItems, createStudy, createUser, resetDatabase } from "@/tests/db-helpers";

/**
 * Model agents answer beside the humans, never in their place: an agent's assignments
 * hold none of the k places an item has for people, so a study's human baseline is as large with
 * agents as without; an agent is given every ordinary item once (as a model run covers the
 * benchmark), whatever the places, quota, practice and gold rules for people say.
 */

function assigned(next: NextAssignment): string {
  if (next.status !== "assigned") throw new Error(`expected an assignment, got ${JSON.stringify(next)}`);
  return next.assignmentId;
}

async function answerAll(studyId: string, userId: string): Promise<{ items: string[]; last: NextAssignment }> {
  const items: string[] = [];
  for (let guard = 0; guard < 100; guard++) {
    const next = await nextAssignment(studyId, userId);
    if (next.status !== "assigned") return { items, last: next };
    const { itemId } = await db.assignment.findUniqueOrThrow({ where: { id: next.assignmentId }, select: { itemId: true } });
    items.push(itemId);
    await submitResponse(userId, {
      assignmentId: next.assignmentId,
      clientId: randomUUID(),
      answer: { order: [1, 2, 0] },
      confidence: 3,
      wallMs: 1000,
      activeMs: 1000,
      submitSeq: 0,
    });
  }
  throw new Error("did not finish");
}

describe("agents and the places of people", () => {
  beforeEach(async () => {
    await resetDatabase();
  });
  afterAll(async () => {
    await disconnectDb();
  });

  it("an agent that answers every item first leaves every place to the people (k = 1)", async () => {
    const researcher = await createUser("RESEARCHER");
    const study = await createStudy({ overlap: 1, createdById: researcher.id });
    const items = await createEnactItems(study.id, { count: 3 });
    const { agent } = await createAgent(study.slug, { name: "baseline", model: "m", notes: "", expiresInDays: 30 }, researcher.id);
    const person = await createUser("ANNOTATOR");
    await addMember(study.id, person.id);

    const byAgent = await answerAll(study.id, agent.id);
    expect(byAgent.items.sort()).toEqual(items.map((item) => item.id).sort());
    expect(byAgent.last.status).toBe("done");

    // the person still has all three items, and the study's progress counts people only
    expect((await progressFor(study.id, person.id)).main.total).toBe(3);
    const byPerson = await answerAll(study.id, person.id);
    expect(byPerson.items.sort()).toEqual(items.map((item) => item.id).sort());
    const progress = await getStudyProgress(study.id, 1);
    expect(progress).toMatchObject({ expected: 3, done: 3, itemsComplete: 3 });
    expect(progress.perAnnotator.map((row) => row.userId)).toEqual([person.id]);

    // the exports mark the agent's rows (CSV written in the database, JSONL from the records)
    const body = async (what: "responses" | "events" | "annotators", format: "csv" | "jsonl") =>
      new Response((await createStudyExport(study.slug, what, format)).stream).text();
    const csv = parseCsv(await body("responses", "csv"));
    const agentColumn = csv[0].indexOf("agent");
    const annotatorColumn = csv[0].indexOf("annotator");
    expect(agentColumn).toBe(annotatorColumn + 1);
    const flagOf = new Map(csv.slice(1).map((row) => [row[annotatorColumn], row[agentColumn]]));
    expect(Object.fromEntries(flagOf)).toEqual({ [pseudonymousId(study.id, agent.id)]: "true", [pseudonymousId(study.id, person.id)]: "false" });
    const lines = (await body("responses", "jsonl"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { annotator: string; agent: boolean });
    expect(lines.filter((line) => line.agent).map((line) => line.annotator)).toEqual(Array(3).fill(pseudonymousId(study.id, agent.id)));
    const annotators = (await body("annotators", "jsonl"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { annotator: string; agent: boolean });
    expect(annotators.find((row) => row.agent)?.annotator).toBe(pseudonymousId(study.id, agent.id));
  });

  it("an agent is given items whose places people hold, skips practice, gold and the quota, and never twice", async () => {
    const researcher = await createUser("RESEARCHER");
    const study = await createStudy({ overlap: 1, createdById: researcher.id });
    const items = await createEnactItems(study.id, { count: 4 });
    await createEnactItems(study.id, { count: 1, practice: true });
    await db.item.update({ where: { id: items[3].id }, data: { gold: true } });
    await db.study.update({ where: { id: study.id }, data: { itemsPerParticipant: 1 } });
    const person = await createUser("ANNOTATOR");
    await addMember(study.id, person.id);
    // the person holds the place of an item (open, not answered)
    const held = assigned(await nextAssignment(study.id, person.id));

    const { agent } = await createAgent(study.slug, { name: "baseline", model: "m", notes: "", expiresInDays: 30 }, researcher.id);
    const first = assigned(await nextAssignment(study.id, agent.id));
    // asked again before answering: the same open assignment
    expect(assigned(await nextAssignment(study.id, agent.id))).toBe(first);
    const byAgent = await answerAll(study.id, agent.id);
    const ordinary = items.slice(0, 3).map((item) => item.id);
    expect(byAgent.items.sort()).toEqual([...ordinary].sort());
    expect(byAgent.last.status).toBe("done");
    const rows = await db.assignment.findMany({ where: { studyId: study.id, userId: agent.id }, select: { purpose: true, agent: true, status: true } });
    expect(rows.every((row) => row.purpose === "MAIN" && row.agent && row.status === "SUBMITTED")).toBe(true);
    // the person's place is untouched
    expect((await db.assignment.findUniqueOrThrow({ where: { id: held } })).status).not.toBe("RELEASED");
  });

  it("agents do not shift the people's Latin-square rotation", async () => {
    const researcher = await createUser("RESEARCHER");
    const study = await createStudy({ overlap: 1, createdById: researcher.id });
    await db.study.update({ where: { id: study.id }, data: { conditions: ["c0", "c1"] } });
    await createEnactItems(study.id, { count: 2 });
    await createAgent(study.slug, { name: "a1", model: "m", notes: "", expiresInDays: 30 }, researcher.id);
    const person = await createUser("ANNOTATOR");
    await addMember(study.id, person.id);
    // the first person (index 0) takes the first item in the first condition, as without the agent
    const first = assigned(await nextAssignment(study.id, person.id));
    const row = await db.assignment.findUniqueOrThrow({ where: { id: first }, select: { condition: true, item: { select: { externalId: true } } } });
    const ordinal = Number(row.item.externalId.split("-").pop());
    expect(row.condition).toBe(["c0", "c1"][ordinal % 2]);
  });
});
