import "server-only";
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";

/**
 * Data access for the kinds' dashboard sections (lib/tasks/<kind>/dashboard.ts), which read these
 * through the port of lib/tasks/dashboard-port.ts: items, answers, play steps, events, step
 * labels and LLM scorer results of one study. What the rows mean is the kinds'.
 */

export async function findItemPublicParts(studyId: string, kind: string) {
  return db.item.findMany({ where: { studyId, kind, practice: false }, select: { id: true, public: true } });
}

export async function findItemsWithKeys(studyId: string, kind: string) {
  return db.item.findMany({
    where: { studyId, kind, practice: false },
    orderBy: { externalId: "asc" },
    select: { id: true, externalId: true, public: true, key: true },
  });
}

export async function findItemsOfKind(studyId: string, kind: string) {
  return db.item.findMany({
    where: { studyId, kind, practice: false },
    select: { id: true, externalId: true, public: true, key: true, tags: true },
  });
}

export async function findItemAnswersAndTags(studyId: string, kind: string) {
  return db.$queryRaw<Array<{ id: string; answer: unknown; tags: unknown }>>(
    Prisma.sql`SELECT id, key->'answer' AS answer, tags FROM "Item" WHERE "studyId" = ${studyId} AND kind = ${kind} AND NOT practice`,
  );
}

export async function countItemsWithoutAnswerKey(studyId: string, kind: string): Promise<{ withheld: bigint; total: bigint }> {
  const [counts] = await db.$queryRaw<Array<{ withheld: bigint; total: bigint }>>`
        SELECT count(*) FILTER (WHERE NOT (key ? 'answer')) AS withheld, count(*) AS total
        FROM "Item" WHERE "studyId" = ${studyId} AND kind = ${kind} AND NOT practice`;
  return counts;
}

export async function findGradingItemsOf(studyId: string, gradingKind: string) {
  return db.item.findMany({
    where: { kind: gradingKind, key: { path: ["source", "study"], equals: studyId } },
    select: { id: true, key: true },
  });
}

export async function findResponsesToItems(studyId: string, itemIds: readonly string[]) {
  return db.response.findMany({
    where: { assignment: { studyId, itemId: { in: [...itemIds] } } },
    select: { id: true, answer: true, assignment: { select: { itemId: true, userId: true } } },
  });
}

export async function findResponsesToGradingItems(itemIds: readonly string[]) {
  return db.response.findMany({
    where: { assignment: { itemId: { in: [...itemIds] }, item: { practice: false } } },
    select: { answer: true, assignment: { select: { itemId: true, userId: true } } },
  });
}

export async function findPredictionsForItems(studyId: string, itemIds: readonly string[]) {
  return db.modelPrediction.findMany({
    where: { run: { studyId }, itemId: { in: [...itemIds] } },
    select: { id: true, answer: true, itemId: true, runId: true },
  });
}

export async function findAnsweredAssignmentsOfItems(studyId: string, itemIds: readonly string[]) {
  return db.assignment.findMany({
    where: { studyId, itemId: { in: [...itemIds] }, purpose: { not: "PRACTICE" }, response: { isNot: null } },
    select: {
      id: true,
      itemId: true,
      userId: true,
      condition: true,
      purpose: true,
      agent: true,
      playState: true,
      user: { select: { isAgent: true, name: true, agentModel: true } },
      response: { select: { answer: true, correct: true, confidence: true } },
    },
  });
}

export async function findPlayedAssignments(studyId: string, kind: string, eventTypes: readonly string[]) {
  return db.assignment.findMany({
    where: { studyId, purpose: { not: "PRACTICE" }, item: { kind }, response: { isNot: null } },
    select: {
      itemId: true,
      userId: true,
      response: { select: { answer: true, score: true } },
      playSteps: { orderBy: { seq: "asc" }, select: { seq: true, action: true, createdAt: true } },
      events: {
        where: { type: { in: [...eventTypes] } },
        orderBy: { seq: "asc" },
        select: { seq: true, type: true, payload: true },
      },
    },
  });
}

export async function findPlayStepsAfterStart(assignmentIds: readonly string[]) {
  return db.playStep.findMany({
    where: { assignmentId: { in: [...assignmentIds] }, seq: { gt: 0 } },
    orderBy: [{ assignmentId: "asc" }, { seq: "asc" }],
    select: { assignmentId: true, seq: true, valid: true },
  });
}

export async function findEventsOfType(assignmentIds: readonly string[], type: string) {
  return db.event.findMany({
    where: { assignmentId: { in: [...assignmentIds] }, type },
    orderBy: [{ assignmentId: "asc" }, { seq: "asc" }],
    select: { assignmentId: true, payload: true },
  });
}

export async function findMediaEventsOfAnswers(studyId: string, kinds: readonly string[], eventTypes: readonly string[]) {
  return db.$queryRaw<Array<{ assignmentId: string; itemId: string; userId: string; type: string | null; payload: unknown }>>`
    SELECT a.id AS "assignmentId", a."itemId", a."userId", e.type, e.payload
    FROM "Assignment" a
    JOIN "Item" i ON i.id = a."itemId"
    JOIN "Response" r ON r."assignmentId" = a.id
    LEFT JOIN "Event" e ON e."assignmentId" = a.id AND e.type = ANY(${eventTypes as string[]}::text[])
    WHERE a."studyId" = ${studyId} AND a.purpose <> 'PRACTICE' AND i.kind = ANY(${[...kinds]}::text[])
    ORDER BY a.id, e.seq`;
}

/** the `left` field of each assignment's last event of `eventType` */
export async function findLastLeftSides(studyId: string, kind: string, eventType: string) {
  return db.$queryRaw<Array<{ itemId: string; userId: string; left: string | null }>>`
    SELECT DISTINCT ON (a.id) a."itemId", a."userId", e.payload->>'left' AS left
    FROM "Event" e JOIN "Assignment" a ON a.id = e."assignmentId" JOIN "Item" i ON i.id = a."itemId"
    WHERE a."studyId" = ${studyId} AND i.kind = ${kind} AND e.type = ${eventType}
    ORDER BY a.id, e.seq DESC`;
}

export async function findStepLabelsOf(assignmentIds: readonly string[]) {
  return db.stepLabel.findMany({ where: { assignmentId: { in: [...assignmentIds] } }, select: { assignmentId: true, seq: true, label: true } });
}

export async function findStepLabelsOfStudy(studyId: string, assignmentIds?: readonly string[]) {
  return db.stepLabel.findMany({
    where: { assignment: { studyId }, ...(assignmentIds ? { assignmentId: { in: [...assignmentIds] } } : {}) },
    select: { assignmentId: true, seq: true, labellerId: true, label: true },
  });
}

export async function findModelRunNames(studyId: string) {
  return db.modelRun.findMany({ where: { studyId }, select: { id: true, name: true }, orderBy: { createdAt: "asc" } });
}

/** `scorer`'s results of the study's responses and predictions to items of `kind` */
export async function findScorerResultsOfKind(studyId: string, scorer: string, kind: string) {
  return db.scorerResult.findMany({
    where: {
      studyId,
      scorer,
      OR: [{ response: { assignment: { item: { kind } } } }, { prediction: { item: { kind } } }],
    },
    select: { model: true, promptVersion: true, score: true, responseId: true, predictionId: true },
  });
}

/** `scorer`'s results of the study, with the item and the person or run each scored */
export async function findScorerResultsWithTargets(studyId: string, scorer: string) {
  return db.scorerResult.findMany({
    where: { studyId, scorer },
    select: {
      model: true,
      promptVersion: true,
      score: true,
      response: { select: { assignment: { select: { itemId: true, userId: true } } } },
      prediction: { select: { runId: true, itemId: true } },
    },
  });
}
