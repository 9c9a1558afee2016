import "server-only";
import { db } from "@/lib/db";
import type { ParticipantStatus } from "@/lib/generated/prisma/enums";

/**
 * Data access for the human-baseline report (lib/report/facts.ts): the study's design as stored,
 * its items by kind, its people's work and its model runs, each in one query. People are the
 * study's members that are not agents; agents count as models (lib/participants/agents.ts).
 */

export async function findStudyForReport(slug: string) {
  return db.study.findUnique({
    where: { slug },
    select: {
      id: true,
      slug: true,
      title: true,
      instructions: true,
      overlap: true,
      itemsPerParticipant: true,
      goldRate: true,
      goldFailLimit: true,
      goldFailWindow: true,
      practicePassMark: true,
      tutorialPages: true,
      consentMarkdown: true,
      balanceTag: true,
      conditions: true,
      itemTimeLimitSeconds: true,
      sessionTimeLimitSeconds: true,
      desktopOnly: true,
      reportingAnswers: true,
    },
  });
}

export async function findReportingAnswersBySlug(slug: string): Promise<{ id: string; reportingAnswers: unknown } | null> {
  return db.study.findUnique({ where: { slug }, select: { id: true, reportingAnswers: true } });
}

export async function findReportingAnswersById(studyId: string): Promise<{ reportingAnswers: unknown } | null> {
  return db.study.findUnique({ where: { id: studyId }, select: { reportingAnswers: true } });
}

export async function setReportingAnswers(studyId: string, reportingAnswers: object): Promise<void> {
  await db.study.update({ where: { id: studyId }, data: { reportingAnswers }, select: { id: true } });
}

export interface ReportItemCount {
  kind: string;
  practice: boolean;
  gold: boolean;
  items: number;
}

export async function countReportItems(studyId: string): Promise<ReportItemCount[]> {
  const rows = await db.item.groupBy({ by: ["kind", "practice", "gold"], where: { studyId }, _count: { _all: true }, orderBy: [{ kind: "asc" }] });
  return rows.map((row) => ({ kind: row.kind, practice: row.practice, gold: row.gold, items: row._count._all }));
}

/** The imported batches: how many, and the items their files held. */
export async function countReportBatches(studyId: string): Promise<{ batches: number; itemsInFiles: number }> {
  const result = await db.batch.aggregate({ where: { studyId }, _count: { _all: true }, _sum: { itemCount: true } });
  return { batches: result._count._all, itemsInFiles: result._sum.itemCount ?? 0 };
}

export interface ReportPerson {
  userId: string;
  status: ParticipantStatus;
  statusReason: string | null;
  /** started a first item */
  started: boolean;
  /** answers to ordinary items (neither practice nor gold) */
  mainAnswers: number;
  goldAnswers: number;
  goldFailed: number;
  practiceAnswers: number;
  activeMs: number;
  wallMs: number;
}

/**
 * Every person (not agent) of the study, a member or anyone with work in it, with their answers by
 * kind of item and their summed times; a person with work and no membership reads as ACTIVE.
 */
export async function listReportPeople(studyId: string): Promise<ReportPerson[]> {
  return db.$queryRaw<ReportPerson[]>`
    WITH people AS (
      SELECT "userId" FROM "StudyMember" WHERE "studyId" = ${studyId}
      UNION SELECT "userId" FROM "Assignment" WHERE "studyId" = ${studyId}
    )
    SELECT p."userId", coalesce(m.status::text, 'ACTIVE') AS status, m."statusReason",
      (m."startedAt" IS NOT NULL OR count(r.id) > 0) AS started,
      count(r.id) FILTER (WHERE NOT i.practice AND NOT i.gold)::int AS "mainAnswers",
      count(r.id) FILTER (WHERE i.gold AND NOT i.practice)::int AS "goldAnswers",
      count(r.id) FILTER (WHERE i.gold AND NOT i.practice AND r.correct = false)::int AS "goldFailed",
      count(r.id) FILTER (WHERE i.practice)::int AS "practiceAnswers",
      coalesce(sum(r."activeMs") FILTER (WHERE NOT i.practice), 0)::float8 AS "activeMs",
      coalesce(sum(r."wallMs") FILTER (WHERE NOT i.practice), 0)::float8 AS "wallMs"
    FROM people p
    JOIN "User" u ON u.id = p."userId"
    LEFT JOIN "StudyMember" m ON m."studyId" = ${studyId} AND m."userId" = p."userId"
    LEFT JOIN "Assignment" a ON a."studyId" = ${studyId} AND a."userId" = p."userId"
    LEFT JOIN "Response" r ON r."assignmentId" = a.id
    LEFT JOIN "Item" i ON i.id = a."itemId"
    WHERE NOT u."isAgent"
    GROUP BY p."userId", m.status, m."statusReason", m."startedAt"
    ORDER BY p."userId"`;
}

/** People's answers per ordinary item (neither practice nor gold), items without any included as 0. */
export async function countHumanAnswersPerItem(studyId: string): Promise<number[]> {
  const rows = await db.$queryRaw<Array<{ answers: number }>>`
    SELECT count(r.id) FILTER (WHERE u.id IS NOT NULL AND NOT u."isAgent")::int AS answers
    FROM "Item" i
    LEFT JOIN "Assignment" a ON a."itemId" = i.id
    LEFT JOIN "Response" r ON r."assignmentId" = a.id
    LEFT JOIN "User" u ON u.id = a."userId"
    WHERE i."studyId" = ${studyId} AND NOT i.practice AND NOT i.gold
    GROUP BY i.id
    ORDER BY i.id`;
  return rows.map((row) => row.answers);
}

export interface ReportModel {
  id: string;
  name: string;
  /** an agent that played through the interface (its model as the researcher named it), else an imported run */
  agent: boolean;
  agentModel: string | null;
  /** items answered, and answers (at most one per item for a run or an agent) */
  items: number;
  answers: number;
}

/** The study's imported runs and its agents, with the items each answered outside practice. */
export async function listReportModels(studyId: string): Promise<ReportModel[]> {
  return db.$queryRaw<ReportModel[]>`
    SELECT r.id, r.name, false AS agent, NULL::text AS "agentModel",
      count(DISTINCT p."itemId") FILTER (WHERE NOT i.practice)::int AS items, count(p.id) FILTER (WHERE NOT i.practice)::int AS answers
    FROM "ModelRun" r LEFT JOIN "ModelPrediction" p ON p."runId" = r.id LEFT JOIN "Item" i ON i.id = p."itemId"
    WHERE r."studyId" = ${studyId}
    GROUP BY r.id, r.name
    UNION ALL
    SELECT u.id, u.name, true AS agent, u."agentModel",
      count(DISTINCT a."itemId") FILTER (WHERE res.id IS NOT NULL AND NOT i.practice)::int AS items,
      count(res.id) FILTER (WHERE NOT i.practice)::int AS answers
    FROM "User" u
    LEFT JOIN "Assignment" a ON a."userId" = u.id AND a."studyId" = ${studyId}
    LEFT JOIN "Response" res ON res."assignmentId" = a.id
    LEFT JOIN "Item" i ON i.id = a."itemId"
    WHERE u."isAgent" AND (u."externalStudyId" = ${studyId} OR a.id IS NOT NULL)
    GROUP BY u.id, u.name, u."agentModel"
    ORDER BY agent, name`;
}

export interface ReportJudge {
  scorer: string;
  model: string;
  promptVersion: string;
  humanAnswers: number;
  modelAnswers: number;
}

/** The LLM scorers that scored the study's answers: people's (responses) and models' (predictions) under each. */
export async function listReportJudges(studyId: string): Promise<ReportJudge[]> {
  return db.$queryRaw<ReportJudge[]>`
    SELECT scorer, model, "promptVersion",
      count(*) FILTER (WHERE "responseId" IS NOT NULL)::int AS "humanAnswers",
      count(*) FILTER (WHERE "predictionId" IS NOT NULL)::int AS "modelAnswers"
    FROM "ScorerResult" WHERE "studyId" = ${studyId}
    GROUP BY scorer, model, "promptVersion" ORDER BY scorer, model, "promptVersion"`;
}
