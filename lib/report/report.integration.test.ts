import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/db";
import { ALL } from "@/lib/dashboard/accuracy";
import { clearDashboardCaches } from "@/lib/dashboard/snapshot";
import { getStudyDashboard } from "@/lib/dashboard/study-dashboard";
import { answer, createBatch, createOrderItem } from "@/lib/dashboard/testing/seed";
import { importModelRun } from "@/lib/models/runs";
import { planForStudy } from "@/lib/plan/plan-for-study";
import { CHECKLIST } from "@/lib/report/checklist";
import { getReportingAnswers, updateReportingAnswers } from "@/lib/report/answers";
import { compensationFacts } from "@/lib/report/compensation";
import { peoplePlan, plannerLines, studyReport } from "@/lib/report/facts";
import { figure, interval, pValue } from "@/lib/report/format";
import { renderLatex, renderMarkdown } from "@/lib/report/render";
import { addMember, createStudy, createUser, resetDatabase } from "@/tests/db-helpers";

/**
 * The human-baseline report on real PostgreSQL. The study: 8 ENACT forward items (k = 2), 2 gold
 * items and 1 practice item; three people: two answer everything (one right on every item, one on
 * half) and finish, the third fails the attention check (a gold item) and is excluded; an imported
 * model run right on items 0-5 and an agent right on items 0-3; the researcher's Reporting
 * answers (ethics review, population, pay).
 */

const RIGHT = [0, 1, 2];
const WRONG = [2, 1, 0];

async function seedStudy() {
  const researcher = await createUser("RESEARCHER");
  const study = await createStudy({ overlap: 2, createdById: researcher.id });
  await db.study.update({
    where: { id: study.id },
    data: {
      title: "R&D: 100% of _ENACT_ #1 for $5",
      instructions: "Put the frames in order.",
      goldRate: 0.2,
      goldFailLimit: 1,
      itemsPerParticipant: 8,
      tutorialPages: [{ title: "Welcome", body: "How it works" }],
    },
  });
  const batch = await createBatch(study.id);
  const items = [];
  for (let i = 0; i < 8; i++) items.push(await createOrderItem(study.id, batch.id, { externalId: `i${i}`, order: RIGHT }));
  const gold = [];
  for (let g = 0; g < 2; g++) {
    const item = await createOrderItem(study.id, batch.id, { externalId: `gold${g}`, order: RIGHT });
    gold.push(await db.item.update({ where: { id: item.id }, data: { gold: true } }));
  }
  const practice = await createOrderItem(study.id, batch.id, { externalId: "practice", order: RIGHT, practice: true });

  const [good, half, careless] = [await createUser("ANNOTATOR"), await createUser("ANNOTATOR"), await createUser("ANNOTATOR")];
  for (const person of [good, half, careless]) await addMember(study.id, person.id);
  for (const person of [good, half]) await answer(practice, person.id, RIGHT, { purpose: "PRACTICE" });
  for (let i = 0; i < 8; i++) {
    await answer(items[i], good.id, RIGHT, { wallMs: 60_000, activeMs: 50_000 });
    await answer(items[i], half.id, i % 2 === 0 ? RIGHT : WRONG, { wallMs: 30_000, activeMs: 20_000 });
  }
  for (const person of [good, half]) await answer(gold[0], person.id, RIGHT);
  await answer(gold[1], careless.id, WRONG);
  await db.studyMember.updateMany({ where: { studyId: study.id, userId: { in: [good.id, half.id] } }, data: { status: "COMPLETE", startedAt: new Date() } });
  await db.studyMember.update({
    where: { studyId_userId: { studyId: study.id, userId: careless.id } },
    data: { status: "EXCLUDED", statusReason: "failed 1 of 1 gold items", startedAt: new Date() },
  });

  const modelLines = Array.from({ length: 8 }, (_, i) => JSON.stringify({ id: `i${i}`, answer: (i < 6 ? RIGHT : WRONG).map((index) => index + 1).join(",") }));
  await importModelRun({ studySlug: study.slug, name: "gpt-test-2026-01", fileName: "model.jsonl", answersJsonl: modelLines.join("\n") });
  const agent = await createUser("ANNOTATOR", { name: "bot" });
  await db.user.update({ where: { id: agent.id }, data: { isAgent: true, agentModel: "claude-test-1", externalStudyId: study.id } });
  for (let i = 0; i < 8; i++) await answer(items[i], agent.id, i < 4 ? RIGHT : WRONG);

  await updateReportingAnswers(
    study.slug,
    {
      answers: {
        "0.1": { detail: "People vs models on ENACT" },
        "1.9": { choice: "Yes", detail: "IRB 2026-14" },
        "2.1": { choice: "Yes" },
        "2.1.1": { detail: "adults fluent in English" },
        "1.10": { choice: "No", detail: "" },
        "2.4": { detail: "   " },
      },
      compensation: { rewardPerPerson: 9, currency: "GBP", bonusRule: "0.10 per correct answer", estimatedMinutes: 45 },
    },
    researcher.id,
  );
  return { study, researcher };
}

const entryOf = (report: Awaited<ReturnType<typeof studyReport>>, number: string) => report.entries.find((e) => e.number === number)!;

describe("the human-baseline report (lib/report/facts.ts)", () => {
  beforeEach(async () => {
    await resetDatabase();
    clearDashboardCaches();
  });
  afterAll(async () => {
    await disconnectDb();
  });

  it("fills every one of the 72 entries or says why not, with the dashboard's own comparison and method", async () => {
    const { study } = await seedStudy();
    const report = await studyReport(study.slug, new Date("2026-12-02T08:00:00Z"));
    expect(report.entries.map((e) => e.number)).toEqual(CHECKLIST.map((e) => e.number));
    for (const entry of report.entries) {
      expect(entry.source, entry.number).not.toBe("");
      if (entry.reported) expect(entry.value.trim(), entry.number).not.toBe("");
      else expect(entry.value, entry.number).toMatch(/^not reported: \S.{10,}/u);
    }

    // the significance and uncertainty figures are the dashboard's, for the same study
    const dashboard = await getStudyDashboard(study.slug, {});
    const rows = dashboard.comparison.rows.filter((row) => row.tag === ALL);
    expect(rows).toHaveLength(2);
    expect(report.comparison).toEqual(rows);
    expect(report.methodLine).toBe(dashboard.method.line);
    expect(entryOf(report, "4.2").value).toBe(dashboard.method.line);
    const significance = entryOf(report, "4.1");
    expect(significance.choice).toBe("Yes");
    for (const row of rows) {
      expect(row.people).toBe(2);
      const d = row.difference;
      expect(significance.value).toContain(`D = ${figure(d.estimate, true, true)}${interval(d.ci, true)}, p = ${pValue(d.p)} on ${row.items} items, 2 people`);
    }
    expect(entryOf(report, "4.1.1").value).toContain(dashboard.method.differences);

    // facts from the records
    expect(entryOf(report, "1.1").value).toBe("3 people answered (1 of them excluded by the quality rules, 2 in the figures); agents not counted");
    expect(entryOf(report, "1.2").value).toBe("8 of the study's 8 items answered by people");
    expect(entryOf(report, "1.3").value).toBe("mean 2.0 (min 2, max 2; 8 values) answers per item; target k = 2");
    expect(entryOf(report, "1.4").value).toBe("mean 5.3 (min 0, max 8; 3 values) items per person (quota 8)");
    expect(entryOf(report, "0.8").value).toContain("8 items in the study (enact-forward 8), besides 1 practice and 2 gold");
    expect(entryOf(report, "0.9").value).toBe("gpt-test-2026-01: 8 items; bot: 8 items");
    expect(entryOf(report, "3.2.1").value).toContain("2 gold (attention) items, 20% of each person's queue; excluded after 1 failed gold items");
    expect(entryOf(report, "3.2.2").value).toContain(
      "33.3% (1 of 3) of people who started excluded (failed 1 of 1 gold items); 33.3% (1 of 3) of gold answers failed",
    );
    expect(entryOf(report, "5.1.5").value).toBe("66.7% (2 of 3) of people who started finished; 1 excluded, 0 returned, 0 timed out, 0 active");
    // two finishers: 8 x 60 s and 8 x 30 s on the items, plus one gold answer each (10 s): 490 s and 250 s,
    // median 370 s, quartiles (type 7) 310 s and 430 s; active 408 s and 168 s, median 288 s
    expect(entryOf(report, "5.1.3").value).toBe(
      "median 6.2 min on the items (IQR 5.2 min–7.2 min), active 4.8 min (IQR 3.8 min–5.8 min), over 2 people who finished",
    );
    expect(entryOf(report, "5.1.4").value).toBe("gpt-test-2026-01 (imported run); bot (agent, model claude-test-1)");
    expect(entryOf(report, "3.3")).toMatchObject({ choice: "Partial", reported: true });
    expect(entryOf(report, "3.3.1").value).toBe("API (agents through the annotation API); imported runs (the model's own harness)");
    expect(entryOf(report, "2.6.1").value).toBe("1 tutorial page(s), then 1 practice item(s) showing the right answer after each");
    expect(entryOf(report, "3.6")).toMatchObject({ choice: "No", reported: true });

    // the researcher's answers, and what nobody answered
    expect(entryOf(report, "0.1")).toMatchObject({ value: "People vs models on ENACT", source: "study settings: Reporting", reported: true });
    expect(entryOf(report, "1.9")).toMatchObject({ choice: "Yes", value: "IRB 2026-14", reported: true });
    expect(entryOf(report, "1.10")).toMatchObject({ choice: "No", value: "No", reported: true });
    expect(entryOf(report, "2.4")).toMatchObject({ reported: false, choice: "Unknown-Unreported" });
    expect(entryOf(report, "5.1.1").value).toBe("not reported: no demographics collected: Yardstick records none");
    expect(entryOf(report, "1.8").value).toContain("not reported: the basis of the sample size is not recorded");
    // the minimum detectable effect is the researcher's; beside it, the planner's precision at the design reached,
    // on the dashboard's people: the two who finished (the excluded one and the agent left out), 9 items each of 10 (8 + one gold)
    const bot = (await db.user.findFirstOrThrow({ where: { name: "bot" } })).id;
    const excluded = (await db.studyMember.findFirstOrThrow({ where: { studyId: study.id, status: "EXCLUDED" } })).userId;
    const planned = plannerLines(await peoplePlan(study.id, { k: 2, itemsPerPerson: 8 }, new Set([bot, excluded])));
    expect(planned).toHaveLength(1);
    expect(planned[0]).toMatch(/^enact-forward .+: ±\d+\.\d{3} at 2 people × 9\.0 of 10 items$/u);
    // the dashboard's Plan panel plans on the same people: neither the agent nor the excluded participant counts as a person
    const panel = (await planForStudy(study.slug))!;
    expect(panel.kinds.map((kind) => kind.people)).toEqual([2]);
    expect(plannerLines(panel)).toEqual(planned);
    expect(entryOf(report, "1.8.1").value).toBe(
      `not reported: not answered in the study's Reporting settings. The planner on people's answers so far (excluded participants and agents left out), the 95% half-width of people's figure at the design reached: ${planned[0]}`,
    );
    expect(entryOf(report, "2.7.1")).toMatchObject({
      value: "9.00 GBP per person for an estimated 45 min",
      source: "study settings: Reporting (compensation)",
    });
    expect(entryOf(report, "2.7.2")).toMatchObject({ choice: "Yes", value: "0.10 per correct answer" });
    expect(entryOf(report, "2.7.2.1").reported).toBe(false);

    // the texts a paper takes
    const md = renderMarkdown(report);
    expect(md).toContain("| 1.9 | Ethics Review | Yes: IRB 2026-14 | study settings: Reporting |");
    expect(renderLatex(report)).toContain("\\section*{Human baseline report: R\\&D: 100\\% of \\_ENACT\\_ \\#1 for \\$5}");
  });

  it("says 'not reported' with why for a study with no answers, no model and no Reporting answers", async () => {
    const study = await createStudy();
    const report = await studyReport(study.slug);
    expect(report.entries).toHaveLength(72);
    expect(entryOf(report, "4.1").value).toBe("not reported: no model run imported and no agent answered the study's items");
    expect(entryOf(report, "5.1.5").value).toBe("not reported: nobody has started");
    expect(entryOf(report, "5.1.3").value).toBe("not reported: nobody has answered yet");
    expect(entryOf(report, "2.7").value).toMatch(/^not reported: no pay recorded/u);
    expect((await compensationFacts(study.id)).notReported).not.toBeNull();
    for (const entry of report.entries) if (!entry.reported) expect(entry.value).toMatch(/^not reported: \S/u);
    await expect(studyReport("no-such-study")).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("stores the Reporting answers once validated, drops empty ones, and refuses bad input naming the field without changing anything", async () => {
    const { study, researcher } = await seedStudy();
    const stored = await getReportingAnswers(study.slug);
    expect(Object.keys(stored.answers).sort()).toEqual(["0.1", "1.10", "1.9", "2.1", "2.1.1"]);
    const bad = [
      { answers: { "9.9": { detail: "x" } } },
      { answers: { "1.9": { choice: "Maybe" } } },
      { answers: { "1.9": { detail: "x".repeat(2001) } } },
      { compensation: { currency: "pounds" } },
      { compensation: { rewardPerPerson: -1 } },
    ];
    for (const body of bad) await expect(updateReportingAnswers(study.slug, body, researcher.id)).rejects.toThrow();
    expect(await getReportingAnswers(study.slug)).toEqual(stored);
    const audit = await db.auditLog.findMany({ where: { action: "study.reporting" } });
    expect(audit).toHaveLength(1);
  });
});
