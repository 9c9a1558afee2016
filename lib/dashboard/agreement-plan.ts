import "server-only";
import { z } from "zod";
import {
  clearAgreementSamplesOutside,
  findAssignmentsOfItems,
  findFinishedMainWork,
  findItemsAssignedToAll,
  findPlanItemAssignments,
  findPlannedItemIds,
  markAgreementSamples,
} from "@/lib/repos/agreement-plan";
import { recordAudit } from "@/lib/audit/log";
import { assignItemsTo } from "@/lib/assignment";
import { AppError } from "@/lib/errors";
import { AGREEMENT_PLAN_PER_CELL, AGREEMENT_PLAN_SEED, DEFAULT_TAG } from "@/lib/dashboard/constants";
import { compareTagValues } from "@/lib/dashboard/snapshot-utils";
import { mulberry32 } from "@/lib/stats/rng";
import { sampleWithoutReplacement, shuffle } from "@/lib/stats/sample-without-replacement";
import { seedFromString } from "@/lib/stats/seed-from-string";

/**
 * The agreement plan: ENACT's cross-annotation design in one action. For each kind x step length
 * (tag "steps") and each annotator with finished MAIN work, sample n items (default 5) from that
 * annotator's finished work and assign them (purpose AGREEMENT, status ASSIGNED) to every other
 * annotator, so that every sampled item gets every annotator. The annotator flow serves AGREEMENT
 * assignments first.
 *
 * Each annotator keeps n items of their own per cell: the items sampled from their work are marked
 * on their MAIN assignment (`agreementSample`), and only those count toward their n. With overlap
 * (an item in two people's main work), an item sampled for one person is not counted for the
 * other, and is not sampled again for them: the paper's balanced set (n x annotators per cell)
 * needs every person's own n.
 *
 * Idempotent: each annotator's marked items still in the plan count toward their n, so a second
 * run samples nothing new; assignments that exist (any purpose) are skipped, and the unique
 * (item, user) key makes concurrent runs safe. The sampling is seeded (study id + a fixed seed),
 * so the same data gives the same plan.
 */

export interface AgreementPlanOptions {
  /** items per kind x tag value x annotator (default 5) */
  perCell?: number;
  /** tag that defines the strata (default "steps") */
  tagKey?: string;
  seed?: number;
}

export interface AgreementPlanResult {
  /** annotators in the design */
  annotators: number;
  /** kind x tag strata seen in finished work */
  cells: number;
  /** items newly sampled by this run */
  sampled: number;
  /** items in the plan after this run */
  planned: number;
  /** AGREEMENT assignments created by this run */
  created: number;
  /** assignments that already existed and were skipped */
  skipped: number;
  message: string;
}

function groupByUser(rows: ReadonlyArray<{ userId: string; itemId: string }>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const row of rows) out.set(row.userId, [...(out.get(row.userId) ?? []), row.itemId]);
  return out;
}

function plural(count: number, word: string): string {
  return `${count.toLocaleString("en-US")} ${word}${count === 1 ? "" : "s"}`;
}

export async function buildAgreementPlan(studyId: string, options: AgreementPlanOptions = {}, actorId: string | null = null): Promise<AgreementPlanResult> {
  const perCell = options.perCell ?? AGREEMENT_PLAN_PER_CELL;
  if (!Number.isInteger(perCell) || perCell < 1 || perCell > 1000) throw new AppError("INVALID", "items per cell must be a whole number from 1 to 1000");
  const tagKey = options.tagKey ?? DEFAULT_TAG;
  const seed = options.seed ?? AGREEMENT_PLAN_SEED;

  // people's finished MAIN work (model agents are not cross-annotated): who did which item, with the item's stratum
  const finished = await findFinishedMainWork(studyId, tagKey);
  const annotators = [...new Set(finished.map((row) => row.userId))].sort();
  if (annotators.length < 2) {
    throw new AppError("INVALID", `The agreement plan needs at least 2 annotators with finished main work; this study has ${annotators.length}`);
  }
  const plannedRows = await findPlannedItemIds(studyId);
  const planned = new Set(plannedRows.map((row) => row.itemId));
  // items every annotator has already (overlap k = all of them): nothing to cross-annotate
  const coveredRows = await findItemsAssignedToAll(studyId, annotators);
  const covered = new Set(coveredRows.map((row) => row.itemId));

  // items sampled for each annotator that are still in the plan: their own n
  const ownSamples = new Set(finished.filter((row) => row.own && planned.has(row.itemId)).map((row) => `${row.userId}\u0000${row.itemId}`));
  const newSamples: Array<{ userId: string; itemId: string }> = [];

  // annotator -> stratum -> finished items
  const work = new Map<string, Map<string, string[]>>();
  const strata = new Set<string>();
  for (const row of finished) {
    const stratum = `${row.kind}\u0000${row.tag ?? ""}`;
    strata.add(stratum);
    let byStratum = work.get(row.userId);
    if (!byStratum) work.set(row.userId, (byStratum = new Map()));
    const list = byStratum.get(stratum);
    if (list) list.push(row.itemId);
    else byStratum.set(stratum, [row.itemId]);
  }
  const orderedStrata = [...strata].sort((a, b) => {
    const [ka, ta] = a.split("\u0000");
    const [kb, tb] = b.split("\u0000");
    return ka.localeCompare(kb) || compareTagValues(ta, tb);
  });
  let sampled = 0;
  for (const userId of annotators) {
    const byStratum = work.get(userId)!;
    for (const stratum of orderedStrata) {
      const items = byStratum.get(stratum);
      if (!items) continue;
      const already = items.filter((id) => ownSamples.has(`${userId}\u0000${id}`)).length;
      const need = perCell - already;
      if (need <= 0) continue;
      const rng = mulberry32(seedFromString(`${studyId}|${seed}|${userId}|${stratum}`));
      for (const itemId of sampleWithoutReplacement(
        items.filter((id) => !planned.has(id) && !covered.has(id)),
        need,
        rng,
      )) {
        planned.add(itemId);
        newSamples.push({ userId, itemId });
        sampled++;
      }
    }
  }
  // mark whose sample each new item is; marks left on items no longer in the plan are cleared
  await clearAgreementSamplesOutside(studyId, [...planned]);
  for (const [userId, itemIds] of groupByUser(newSamples)) {
    await markAgreementSamples(studyId, userId, itemIds);
  }

  // every planned item to every annotator who has no assignment of it yet
  const plannedIds = [...planned].sort();
  const existing = await findAssignmentsOfItems(studyId, plannedIds);
  const has = new Set(existing.map((a) => `${a.itemId}\u0000${a.userId}`));
  const toCreate = new Map<string, string[]>();
  let skipped = 0;
  for (const itemId of plannedIds) {
    for (const userId of annotators) {
      if (has.has(`${itemId}\u0000${userId}`)) {
        skipped++;
        continue;
      }
      const list = toCreate.get(userId);
      if (list) list.push(itemId);
      else toCreate.set(userId, [itemId]);
    }
  }
  // lib/assignment's assignItemsTo takes the study's assignment lock, skips what exists and
  // gives positions after the annotator's last; the order within the plan is shuffled (seeded)
  let created = 0;
  for (const [userId, itemIds] of [...toCreate.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    const order = shuffle(itemIds, mulberry32(seedFromString(`${studyId}|${seed}|order|${userId}`)));
    const result = await assignItemsTo(userId, order, "AGREEMENT");
    created += result.created;
    skipped += result.skipped;
  }
  if (actorId !== null || created > 0) {
    await recordAudit(actorId, "study.agreement-plan", `study:${studyId}`, { perCell, tagKey, sampled, created, planned: planned.size });
  }
  const message =
    created === 0 && sampled === 0 && planned.size === 0
      ? `Nothing to assign: every finished item already has all ${plural(annotators.length, "annotator")} (the study's overlap covers them); agreement is computed on those items.`
      : created === 0 && sampled === 0
        ? `The agreement plan is complete already: ${plural(planned.size, "item")} across ${plural(annotators.length, "annotator")}; nothing new to assign.`
        : `Sampled ${plural(sampled, "new item")} (${perCell} per ${tagKey === DEFAULT_TAG ? "kind x step length" : `kind x ${tagKey}`} x annotator) and created ${plural(created, "agreement assignment")}; the plan holds ${plural(planned.size, "item")} for ${plural(annotators.length, "annotator")}.`;
  return { annotators: annotators.length, cells: strata.size, sampled, planned: planned.size, created, skipped, message };
}

export interface AgreementPlanStatus {
  /** items with AGREEMENT assignments */
  planned: number;
  assignments: number;
  assignmentsDone: number;
  /** plan items whose every assignment (MAIN or AGREEMENT) has a response */
  completeItemIds: string[];
  annotators: number;
}

/** How far the plan is: planned items, agreement assignments done, items with every annotator's answer. */
export async function getAgreementPlanStatus(studyId: string): Promise<AgreementPlanStatus> {
  const rows = await findPlanItemAssignments(studyId);
  const items = new Map<string, boolean>();
  const users = new Set<string>();
  let assignments = 0;
  let assignmentsDone = 0;
  for (const row of rows) {
    users.add(row.userId);
    items.set(row.itemId, (items.get(row.itemId) ?? true) && row.done);
    if (row.purpose === "AGREEMENT") {
      assignments++;
      if (row.done) assignmentsDone++;
    }
  }
  return {
    planned: items.size,
    assignments,
    assignmentsDone,
    completeItemIds: [...items.entries()]
      .filter(([, complete]) => complete)
      .map(([id]) => id)
      .sort(),
    annotators: users.size,
  };
}

/** Body of POST /api/studies/<slug>/agreement-plan. */
export const agreementPlanBuildSchema = z.object({
  perCell: z.coerce.number().int().min(1, "at least 1 item per cell").max(1000).optional(),
  tag: z.string().trim().min(1).max(60).optional(),
});
