import path from "node:path";
import { randomUUID } from "node:crypto";
import { db } from "@/lib/db";
import { DATA_DIR } from "@/lib/db/database-url";
import type { Prisma } from "@/lib/generated/prisma/client";
import { importBatchFromPath } from "@/lib/import";
import { importModelRun } from "@/lib/models/runs";
import { LLM_SCORER } from "@/lib/scoring/llm-jobs";
import { mulberry32 } from "@/lib/stats/rng";
import { parseFreeTextAnswer } from "@/lib/tasks/free-text";
import { freeTextGradeModule } from "@/lib/tasks/free-text-grade";
import { freeTextGradeRecord } from "@/lib/tasks/free-text/grades";
import { gradingBatchLines, type GradableAnswer } from "@/lib/tasks/free-text/grading";
import { DEFAULT_JUDGE, judgeVersion } from "@/lib/tasks/free-text/judge";
import { llm } from "@/lib/tasks/free-text/scoring";
import { generateFreeTextDemoBatch } from "@/scripts/demo-data/free-text/generate-free-text-batch";
import { settleSimulatedMembers } from "@/scripts/demo-data/simulated-members";

export const FREE_TEXT_STUDY = "free-text-demo";
export const FREE_TEXT_GRADING_STUDY = "free-text-demo-grading";
/** the demo has no LLM: its grades come from this rule, stored under this name */
export const SYNTHETIC_JUDGE = "synthetic judge (not an LLM)";

export const freeTextInstructions = `# Questions about rooms

Each item shows a room (a picture, or a short walk through a kitchen: press Play) and asks a
question. Answer in your own words in the text box, as briefly as you like. Then give your
confidence and submit. Your answers are graded later against reference answers.`;

export const gradingInstructions = `# Grade answers

Each item is a question, its reference answer(s), and someone's answer. Grade how well the answer
matches a reference in meaning, 1 to 5 (press 1-5 or tap). You do not see anyone else's grade.`;

/**
 * The SYNTHETIC judge of the demo (no LLM is called): 5 when the answer holds a reference answer,
 * 3 when it shares a word of four letters or more with one, else 1.
 */
export function syntheticGrade(answer: string, references: readonly string[]): number {
  const norm = (text: string) =>
    text
      .toLowerCase()
      .replace(/[^a-z0-9 ]/g, " ")
      .replace(/\s+/g, " ")
      .trim();
  const a = norm(answer);
  if (references.some((reference) => a.includes(norm(reference)))) return 5;
  const words = new Set(a.split(" ").filter((word) => word.length >= 4));
  return references.some((reference) =>
    norm(reference)
      .split(" ")
      .some((word) => words.has(word)),
  )
    ? 3
    : 1;
}

/**
 * The free-text demo: study "free-text-demo" (6 questions and a practice one about drawn rooms and one about the demo clip,
 * for the demo annotators, k = 3) with a SYNTHETIC model run graded by the SYNTHETIC judge; and
 * study "free-text-demo-grading", the model's answers to grade, graded by two SIMULATED graders
 * (not people: the synthetic grade, one of them a grade lower half the time), so that the judge-human
 * alpha has something to show.
 */
export async function seedFreeTextStudy(users: Record<string, string>, admin: string, annotatorIds: readonly string[]): Promise<number> {
  const batchDir = path.join(DATA_DIR, "demo", "free-text-batch");
  const generated = await generateFreeTextDemoBatch({ outDir: batchDir });
  const study = await db.study.create({
    data: {
      slug: FREE_TEXT_STUDY,
      title: "Free-text demo: questions about rooms (LLM-Match)",
      instructions: freeTextInstructions,
      overlap: 3,
      confidenceScale: "LIKERT_5",
      createdById: users["researcher@yardstick.local"],
    },
    select: { id: true },
  });
  await importBatchFromPath(batchDir, { studySlug: FREE_TEXT_STUDY, importedById: admin });
  await db.studyMember.createMany({ data: annotatorIds.map((userId) => ({ studyId: study.id, userId })) });
  await importModelRun({
    studySlug: FREE_TEXT_STUDY,
    name: generated.run.name,
    answersJsonl: generated.run.jsonl,
    fileName: generated.run.file,
    importedById: admin,
  });

  // the SYNTHETIC judge's grades of the model's answers, stored as a judge's would be
  const promptVersion = judgeVersion(DEFAULT_JUDGE);
  const predictions = await db.modelPrediction.findMany({
    where: { run: { studyId: study.id } },
    select: { id: true, answer: true, item: { select: { externalId: true, public: true, key: true, tags: true } } },
  });
  const gradable: GradableAnswer[] = [];
  for (const prediction of predictions) {
    const key = prediction.item.key as { answer: string; extraAnswers?: string[] };
    const references = [key.answer, ...(key.extraAnswers ?? [])];
    const text = parseFreeTextAnswer(prediction.answer)?.text ?? "";
    const grade = syntheticGrade(text, references);
    const record = freeTextGradeRecord(grade, SYNTHETIC_JUDGE, promptVersion, references.length, true);
    // as the scoring job stores a grade: the judge's record, and the answer's own score and correctness from it
    const own = llm.answerScoreOf!(record)!;
    await db.$transaction([
      db.scorerResult.create({
        data: {
          studyId: study.id,
          scorer: LLM_SCORER,
          model: SYNTHETIC_JUDGE,
          promptVersion,
          predictionId: prediction.id,
          score: record as unknown as Prisma.InputJsonValue,
        },
      }),
      db.modelPrediction.update({ where: { id: prediction.id }, data: { score: own.score as Prisma.InputJsonValue, correct: own.correct } }),
    ]);
    const category = (prediction.item.tags as { category?: string }).category ?? null;
    gradable.push({
      type: "prediction",
      id: prediction.id,
      itemExternalId: prediction.item.externalId,
      question: (prediction.item.public as { question: string }).question,
      references,
      text,
      category,
    });
  }

  // the grading study of those answers, graded by two SIMULATED graders
  const grading = await db.study.create({
    data: {
      slug: FREE_TEXT_GRADING_STUDY,
      title: "Free-text demo: grade the model's answers",
      instructions: gradingInstructions,
      overlap: 2,
      confidenceScale: "LIKERT_5",
      createdById: users["researcher@yardstick.local"],
    },
    select: { id: true },
  });
  const lines = gradingBatchLines(
    study.id,
    gradable.sort((a, b) => a.itemExternalId.localeCompare(b.itemExternalId)),
  );
  const batch = await db.batch.create({ data: { studyId: grading.id, fileName: "grading-batch.jsonl", checksum: randomUUID(), itemCount: lines.length } });
  const graders = [
    await db.user.create({ data: { name: "Simulated grader 1 (not a person)", role: "ANNOTATOR" } }),
    await db.user.create({ data: { name: "Simulated grader 2 (not a person)", role: "ANNOTATOR" } }),
  ];
  const rng = mulberry32(20);
  let position = 0;
  for (const line of lines) {
    const item = await db.item.create({
      data: {
        studyId: grading.id,
        batchId: batch.id,
        externalId: line.id,
        kind: line.kind,
        public: line.public as Prisma.InputJsonValue,
        key: line.key as Prisma.InputJsonValue,
        tags: (line.tags ?? {}) as Prisma.InputJsonValue,
        contentHash: randomUUID(),
      },
    });
    const source = gradable.find((answer) => answer.id === (line.key as { source: { prediction: string } }).source.prediction)!;
    const judged = syntheticGrade(source.text, source.references);
    for (const [i, grader] of graders.entries()) {
      const grade = i === 0 ? judged : Math.max(1, judged - (rng() < 0.5 ? 1 : 0));
      const submittedAt = new Date(Date.UTC(2026, 10, 20, 10, 0, position * 40));
      // shown 9 s before the grade was submitted, as the stored wall time says
      const shownAt = new Date(submittedAt.getTime() - 9000);
      const assignment = await db.assignment.create({
        data: {
          studyId: grading.id,
          itemId: item.id,
          userId: grader.id,
          status: "SUBMITTED",
          position: position++,
          createdAt: shownAt,
          startedAt: shownAt,
          submittedAt,
        },
      });
      await db.response.create({
        data: {
          assignmentId: assignment.id,
          clientId: randomUUID(),
          answer: { grade },
          confidenceRaw: 4,
          confidence: 0.75,
          wallMs: 9000,
          activeMs: 8000,
          score: { grade },
          correct: freeTextGradeModule.correct({ grade }),
          createdAt: submittedAt,
        },
      });
    }
  }
  await settleSimulatedMembers(
    grading.id,
    graders.map((grader) => grader.id),
  );
  return generated.items.length;
}
