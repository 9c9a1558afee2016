import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/db";
import { wilsonBounds } from "@/lib/stats/clustered-wilson-interval";
import { tCritical } from "@/lib/stats/student-t";
import { ALL } from "@/lib/dashboard/accuracy";
import { clearDashboardCaches } from "@/lib/dashboard/snapshot";
import { getStudyDashboard, visitStudyDashboard, type StudyDashboard } from "@/lib/dashboard/study-dashboard";
import { answer, createBatch, createOrderItem } from "@/lib/dashboard/testing/seed";
import { comparisonCsv } from "@/lib/exports/comparison";
import { parseCsv } from "@/lib/exports/csv";
import { importModelRun } from "@/lib/models/runs";
import { getStudySettings, updateStudyAnalysis } from "@/lib/studies/settings";
import { createStudy, createUser, resetDatabase } from "@/tests/db-helpers";

/**
 * Intervals over people and items, and people against models on the same items, on real
 * PostgreSQL. The study: 24 ENACT forward items (L = 3) x 5 people whose accuracies are 1.00,
 * 1.00, 0.58, 0.04 and 0.04 (person p is right on item i when (i + 5p) mod 24 < rights[p], so
 * every item has 2 or 3 of 5 right: items barely differ); an imported model run on items 0-19,
 * right on the even ones; an agent that played through the interface on items 0-11, right on all.
 */

const RIGHTS = [24, 24, 14, 1, 1];
const right = (p: number, i: number) => (i + 5 * p) % 24 < RIGHTS[p];
const RIGHT = [0, 1, 2];
const WRONG = [2, 1, 0];

async function seedStudy(people = RIGHTS.length) {
  const study = await createStudy({ overlap: people });
  const batch = await createBatch(study.id);
  const items = [];
  for (let i = 0; i < 24; i++) items.push(await createOrderItem(study.id, batch.id, { externalId: `i${i}`, order: RIGHT }));
  const users = [];
  for (let p = 0; p < people; p++) users.push(await createUser("ANNOTATOR", { name: `Person ${p}` }));
  for (let p = 0; p < people; p++) for (let i = 0; i < 24; i++) await answer(items[i], users[p].id, right(p, i) ? RIGHT : WRONG);
  const modelLines = Array.from({ length: 20 }, (_, i) =>
    JSON.stringify({
      id: `i${i}`,
      // model outputs name the steps by their 1-based labels, as ENACT's released parser reads them
      answer: (i % 2 === 0 ? RIGHT : WRONG).map((index) => index + 1).join(","),
    }),
  );
  await importModelRun({ studySlug: study.slug, name: "Even model", fileName: "model.jsonl", answersJsonl: modelLines.join("\n") });
  const agent = await createUser("ANNOTATOR", { name: "bot" });
  await db.user.update({ where: { id: agent.id }, data: { isAgent: true } });
  for (let i = 0; i < 12; i++) await answer(items[i], agent.id, RIGHT);
  return { study, users, agent };
}

/** People's share right on items 0 .. n-1, from the design. */
function peopleOn(n: number, people = RIGHTS.length): number {
  let k = 0;
  for (let p = 0; p < people; p++) for (let i = 0; i < n; i++) if (right(p, i)) k++;
  return k / (n * people);
}

const taAll = (d: StudyDashboard) => d.accuracy.rows.find((r) => r.kind === "enact-forward")!.cells[ALL].metrics.TA;

describe("intervals over people and items, and people against models on the same items", () => {
  beforeEach(async () => {
    await resetDatabase();
    clearDashboardCaches();
  });
  afterAll(async () => {
    await disconnectDb();
  });

  it("widens TA to about [0.19, 0.85] when people differ, names the method, and compares people with the run and the agent on the items both answered", async () => {
    const { study } = await seedStudy();
    const d = await getStudyDashboard(study.slug, {});
    const ta = taAll(d);
    expect(ta.value).toBeCloseTo(64 / 120, 12);
    expect(ta.interval).toBe("wilson");
    expect(ta.people).toBe(5);
    // about [0.19, 0.85] at 1.96; t with 4 df (5 people) widens it
    expect(ta.ci![0]).toBeGreaterThan(0.1);
    expect(ta.ci![0]).toBeLessThan(0.17);
    expect(ta.ci![1]).toBeGreaterThan(0.85);
    expect(ta.ci![1]).toBeLessThan(0.93);
    expect(d.method.over).toBe("people+items");
    expect(d.method.line).toContain("people and items");
    // the agent is not among the people
    expect(d.annotators.map((a) => a.name)).not.toContain("bot");

    const overall = d.comparison.rows.filter((r) => r.tag === ALL);
    expect(d.comparison.metrics).toEqual([{ kind: "enact-forward", metric: "TA", label: expect.any(String), scale: "fraction", proportion: true }]);
    expect(overall.map((r) => [r.model.name.startsWith("Agent"), r.model.agent, r.items])).toEqual([
      [true, true, 12],
      [false, false, 20],
    ]);
    const [agentRow, modelRow] = overall;
    // the agent: right on all 12, so D = people's share on items 0-11 minus 1
    expect(agentRow.humans.estimate).toBeCloseTo(peopleOn(12), 12);
    expect(agentRow.modelEstimate).toBeCloseTo(1, 12);
    expect(agentRow.difference.estimate).toBeCloseTo(peopleOn(12) - 1, 12);
    expect(agentRow.people).toBe(5);
    expect(agentRow.answers).toBe(60);
    // the run: right on 10 of its 20 items
    expect(modelRow.humans.estimate).toBeCloseTo(peopleOn(20), 12);
    expect(modelRow.modelEstimate).toBeCloseTo(0.5, 12);
    expect(modelRow.difference.estimate).toBeCloseTo(peopleOn(20) - 0.5, 12);
    expect(modelRow.method).toBe("paired two-way");
    expect(modelRow.humansAll.estimate).toBeCloseTo(64 / 120, 12);
    expect(modelRow.humansAll.ci).toEqual(ta.ci);
    for (const row of overall) {
      expect(row.difference.ci![0]).toBeLessThan(row.difference.estimate!);
      expect(row.difference.ci![1]).toBeGreaterThan(row.difference.estimate!);
      expect(row.difference.p).toBeGreaterThan(0);
      expect(row.difference.p).toBeLessThanOrEqual(1);
    }

    // comparison.csv: the same rows
    const csv = parseCsv(comparisonCsv(d.comparison, d.choices.tagKey));
    expect(csv[0]).toContain("difference_ci_lower");
    expect(csv.length).toBe(1 + d.comparison.rows.length);
    const header = csv[0];
    const first = Object.fromEntries(header.map((h, i) => [h, csv[1][i]]));
    expect(first).toMatchObject({ kind: "enact-forward", metric: "TA", tag: "all", agent: "true", items: "12", generalise_over: "people+items" });
    expect(Number(first.difference)).toBeCloseTo(peopleOn(12) - 1, 12);
  });

  it("with 'items only' these people are the population: TA's narrow interval Wilson(64, 120) = [0.4444, 0.6202], narrower differences, and stored views become behind", async () => {
    const { study, users } = await seedStudy();
    const wide = await getStudyDashboard(study.slug, {}, { intervals: "inline", store: true });
    const admin = await createUser("ADMIN");
    expect(await updateStudyAnalysis(study.slug, { generaliseOver: "items" }, admin.id)).toEqual({ generaliseOver: "items" });
    expect((await getStudySettings(study.slug)).analysis.generaliseOver).toBe("items");
    const audit = await db.auditLog.findFirstOrThrow({ where: { action: "study.analysis" } });
    expect(audit.detail).toMatchObject({ changes: { generaliseOver: { from: "people+items", to: "items" } } });

    // the view stored under the other choice is of older figures: served as behind, recomputed
    const visited = await visitStudyDashboard(study.slug, {});
    expect("pending" in visited).toBe(false);
    expect((visited as StudyDashboard).intervals.behind).toBe(true);

    const narrow = await getStudyDashboard(study.slug, {}, { intervals: "inline" });
    expect(narrow.method.over).toBe("items");
    expect(narrow.method.line).toContain("items only");
    const ta = taAll(narrow);
    expect(ta.value).toBeCloseTo(64 / 120, 12);
    // Wilson(64, 120) = [0.4444, 0.6202] at 1.96; at t(23), 24 items' df
    expect(ta.ci![0]).toBeCloseTo(wilsonBounds(64 / 120, 120, tCritical(23))[0], 10);
    expect(ta.ci![1]).toBeCloseTo(wilsonBounds(64 / 120, 120, tCritical(23))[1], 10);
    const width = (ci: [number, number] | null) => ci![1] - ci![0];
    expect(width(taAll(wide).ci) / width(ta.ci)).toBeGreaterThan(3);
    const wideRun = wide.comparison.rows.find((r) => r.tag === ALL && !r.model.agent)!;
    const narrowRun = narrow.comparison.rows.find((r) => r.tag === ALL && !r.model.agent)!;
    expect(narrowRun.difference.estimate).toBeCloseTo(wideRun.difference.estimate!, 12);
    expect(width(narrowRun.difference.ci)).toBeLessThan(width(wideRun.difference.ci));
    expect(users.length).toBe(5);
  });

  it("one person: 'one person' in words instead of an interval over people, for the figure and the difference", async () => {
    const { study } = await seedStudy(1);
    const d = await getStudyDashboard(study.slug, {});
    expect(taAll(d)).toMatchObject({ value: 1, ci: null, reason: "one person", people: 1 });
    const run = d.comparison.rows.find((r) => r.tag === ALL && !r.model.agent)!;
    expect(run.items).toBe(20);
    expect(run.difference.estimate).toBeCloseTo(0.5, 12);
    expect(run.difference).toMatchObject({ ci: null, p: null, reason: "one person" });
  });
});
