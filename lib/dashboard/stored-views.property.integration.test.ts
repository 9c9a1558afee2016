import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { getStudyDashboard, refreshedViews, viewKeyOf, type StudyDashboard } from "@/lib/dashboard/study-dashboard";
import { refreshStudyViews } from "@/lib/dashboard/view-refresh";
import { answer, createBatch, createOrderItem } from "@/lib/dashboard/testing/seed";
import type { Prisma } from "@/lib/generated/prisma/client";
import { QUEUES, stopBoss } from "@/lib/jobs/queue";
import { workUntilIdle } from "@/lib/jobs/worker";
import { actOnParticipant, withdrawFromStudy } from "@/lib/participants/participants";
import { mulberry32 } from "@/lib/stats/rng";
import { getTaskModule } from "@/lib/tasks";
import { addMember, createStudy, createUser, resetDatabase, resetJobQueue } from "@/tests/db-helpers";

/**
 * Property: whatever the writes (answers, re-scored answers, items failing and passing
 * review, participants excluded, re-included and withdrawn), a large study's view as the page
 * serves it (the background job's stored figures, recomputed when the data moved on) equals the
 * full recomputation, figure by figure, after every write; and a stored view is never served
 * as current when it is not. So do the views the worker's refresh keeps (the default view and
 * each other encoding's), computed by its pass after every write before anyone visits them.
 * "Large" is lowered to 0 answers here.
 */

const VIEWS: Array<Record<string, string>> = [{}, { tag: "hand" }, { reviewed: "with" }, { participants: "with", ci: "units" }];

const figuresOf = (d: StudyDashboard) => ({
  ...d,
  intervals: undefined,
  progress: undefined,
  asOf: { ...d.asOf, loadedAt: undefined, replica: undefined, currentResponses: undefined },
});

describe("stored dashboard views against the full recomputation, under random writes", () => {
  beforeEach(async () => {
    await resetDatabase();
    await resetJobQueue();
  });
  afterAll(stopBoss);

  for (const seed of [1, 2, 3]) {
    it(`seed ${seed}`, { timeout: 120_000 }, async () => {
      const random = mulberry32(seed);
      const pick = <T>(list: T[]): T => list[Math.floor(random() * list.length)];
      const researcher = await createUser("RESEARCHER");
      const study = await createStudy({ overlap: 3 });
      const batch = await createBatch(study.id);
      const people = [await createUser("ANNOTATOR"), await createUser("ANNOTATOR"), await createUser("ANNOTATOR"), await createUser("ANNOTATOR")];
      for (const person of people) await addMember(study.id, person.id);
      const items: Array<Awaited<ReturnType<typeof createOrderItem>>> = [];
      for (let n = 0; n < 8; n++) {
        const L = 3 + (n % 3);
        items.push(
          await createOrderItem(study.id, batch.id, {
            externalId: `i${n}`,
            kind: n % 2 ? "enact-inverse" : "enact-forward",
            order: Array.from({ length: L }, (_, i) => i),
            tags: { steps: L, hand: n % 3 ? "left" : "right" },
          }),
        );
      }
      const reviewStudy = await db.reviewStudy.create({ data: { slug: `review-${seed}-${Date.now()}`, title: "vetting", createdById: researcher.id } });
      const withdrawn = new Set<string>();
      const perturbed = (L: number) => {
        const order = Array.from({ length: L }, (_, i) => i);
        if (random() < 0.4) [order[0], order[L - 1]] = [order[L - 1], order[0]];
        return order;
      };
      const writes: Array<{ name: string; run: () => Promise<unknown> }> = [
        {
          name: "answer",
          run: async () => {
            const person = pick(people.filter((p) => !withdrawn.has(p.id)));
            const item = pick(items);
            const done = await db.assignment.findUnique({ where: { itemId_userId: { itemId: item.id, userId: person.id } }, select: { id: true } });
            if (!done)
              await answer(item, person.id, perturbed((item.key as { order: number[] }).order.length), {
                confidence: Math.round(random() * 4) / 4,
                activeMs: 1000 + Math.floor(random() * 9000),
              });
          },
        },
        {
          name: "re-score",
          run: async () => {
            const rows = await db.response.findMany({
              where: { assignment: { studyId: study.id } },
              select: { id: true, assignment: { select: { item: true } } },
            });
            if (rows.length === 0) return;
            const row = pick(rows);
            const item = row.assignment.item;
            const score = getTaskModule(item.kind).score({ order: perturbed((item.key as { order: number[] }).order.length) }, item.key, {
              id: item.externalId,
              kind: item.kind,
              public: item.public,
              key: item.key,
              tags: {},
            });
            await db.response.update({
              where: { id: row.id },
              data: { score: score as Prisma.InputJsonValue, correct: getTaskModule(item.kind).correct(score) },
            });
          },
        },
        {
          name: "review",
          run: async () => {
            const item = pick(items);
            const outcome = random() < 0.6 ? "EXCLUDED" : "KEPT";
            await db.reviewItem.upsert({
              where: { reviewStudyId_externalId_contentHash: { reviewStudyId: reviewStudy.id, externalId: item.externalId, contentHash: item.contentHash } },
              create: {
                reviewStudyId: reviewStudy.id,
                itemId: item.id,
                externalId: item.externalId,
                contentHash: item.contentHash,
                kind: item.kind,
                position: items.indexOf(item),
                outcome,
                ruleOutcome: outcome,
              },
              update: { outcome, ruleOutcome: outcome },
            });
          },
        },
        {
          name: "exclude or re-include a participant",
          run: async () => {
            const person = pick(people.filter((p) => !withdrawn.has(p.id)));
            const member = await db.studyMember.findUniqueOrThrow({
              where: { studyId_userId: { studyId: study.id, userId: person.id } },
              select: { status: true },
            });
            if (member.status === "EXCLUDED") await actOnParticipant(study.slug, { action: "reinclude", userId: person.id }, researcher.id);
            else
              await db.studyMember.update({
                where: { studyId_userId: { studyId: study.id, userId: person.id } },
                data: { status: "EXCLUDED", statusReason: "failed the gold rule" },
              });
          },
        },
        {
          name: "withdraw",
          run: async () => {
            const left = people.filter((p) => !withdrawn.has(p.id));
            if (left.length <= 2 || random() < 0.7) return;
            const person = pick(left);
            await withdrawFromStudy(study.slug, person.id);
            withdrawn.add(person.id);
          },
        },
      ];
      // enough answers first, then a mix
      for (let n = 0; n < 14; n++) await writes[0].run();
      // every write on its own, then every view checked: a write that changes no answer (a review outcome, an exclusion) must still be seen
      for (let step = 0; step < 16; step++) {
        await pick(writes).run();
        const asked = await refreshStudyViews({ minAnswers: 0, now: Date.now() + 365 * 86_400_000 });
        await workUntilIdle({ queues: [QUEUES.dashboardIntervals.name] });
        for (const view of refreshedViews(items.map((item) => item.kind))) {
          const params = JSON.parse(viewKeyOf(view)) as Record<string, string>;
          const served = await getStudyDashboard(study.slug, params, { inlineMaxAnswers: 0 });
          const where = `step ${step}, refreshed view ${JSON.stringify(params)} (the pass asked for ${JSON.stringify(asked.map((a) => a.viewKey))})`;
          expect(served.intervals, where).toMatchObject({ state: "ready", behind: false });
          expect(figuresOf(served), where).toEqual(figuresOf(await getStudyDashboard(study.slug, params, { intervals: "inline" })));
        }
        for (const params of VIEWS) {
          const full = await getStudyDashboard(study.slug, params, { intervals: "inline" });
          let served = await getStudyDashboard(study.slug, params, { inlineMaxAnswers: 0 });
          if (served.intervals.state === "computing" || served.intervals.behind) {
            await workUntilIdle({ queues: [QUEUES.dashboardIntervals.name] });
            served = await getStudyDashboard(study.slug, params, { inlineMaxAnswers: 0 });
          }
          expect(served.intervals, `step ${step}, view ${JSON.stringify(params)}`).toMatchObject({ state: "ready", behind: false });
          expect(figuresOf(served), `step ${step}, view ${JSON.stringify(params)}`).toEqual(figuresOf(full));
        }
      }
    });
  }
});
