import "server-only";
import { headlineMetric } from "@/lib/cli/compare";
import { metricShape } from "@/lib/dashboard/accuracy";
import { agentRuns } from "@/lib/dashboard/agents";
import { snapshotWithoutAnnotators } from "@/lib/dashboard/participant-filter";
import { getSnapshot } from "@/lib/dashboard/snapshot";
import { excludedParticipantIds } from "@/lib/participants/participants";
import { findStudyDesign } from "@/lib/repos/studies";
import type { StudySnapshot } from "@/lib/dashboard/types";
import type { Components } from "@/lib/stats/study-planner";
import type { CrossedAnswer } from "@/lib/stats/two-way-cluster-variance";
import { VARIANCE_COMPONENTS_ESTIMATOR, varianceComponents } from "@/lib/stats/variance-components";
import { getTaskModule, isTaskKind, taskKinds } from "@/lib/tasks";
import type { ScoredAnswer } from "@/lib/tasks/types";

/**
 * What the Plan panel needs of a study: per kind, the variance components of the answers so far on
 * the kind's headline metric (Henderson's Method I, lib/stats/variance-components.ts), the items,
 * and the study's design (answers per item k = its overlap, items per person m = its quota or
 * every item); the panel computes the plan from them (lib/stats/study-planner.ts) as the
 * researcher edits the target half-width and the difference to detect.
 */

export interface KindPlanData {
  kind: string;
  title: string;
  metric: string;
  metricLabel: string;
  /** non-practice items of the kind (I) */
  items: number;
  /** the pilot so far */
  answers: number;
  people: number;
  /** null with `reason` when the answers so far cannot give them */
  components: Components | null;
  reason?: string;
  /** the metric's per-answer values lie in [0, 1] (a model score s then has per-item variance s (1 - s) at most) */
  unitScale: boolean;
}

export interface StudyPlanData {
  estimator: string;
  /** answers per item the study asks for (its overlap) */
  k: number;
  /** items per person (the study's quota), null: every item */
  itemsPerPerson: number | null;
  kinds: KindPlanData[];
}

/** The plan's inputs from a snapshot of the study's answers (pure). */
export function planFromSnapshot(snapshot: StudySnapshot, design: { k: number; itemsPerPerson: number | null }): StudyPlanData {
  const { items, responses } = snapshot;
  const kinds: KindPlanData[] = [];
  const itemCount = new Map<string, number>();
  for (const kind of items.kinds) itemCount.set(kind, (itemCount.get(kind) ?? 0) + 1);
  for (const kind of taskKinds.filter((k) => itemCount.has(k))) {
    if (!isTaskKind(kind)) continue;
    const taskModule = getTaskModule(kind);
    const metric = headlineMetric(taskModule);
    const spec = taskModule.metrics.find((m) => m.id === metric)!;
    const rows: ScoredAnswer[] = [];
    const cells: Array<{ item: number; person: number }> = [];
    for (let r = 0; r < responses.count; r++) {
      const item = responses.item[r];
      if (items.kinds[item] !== kind) continue;
      rows.push({
        itemId: items.externalIds[item],
        tags: items.tags[item] as ScoredAnswer["tags"],
        answer: responses.answer[r],
        score: responses.score[r],
        annotator: String(responses.annotator[r]),
      });
      cells.push({ item, person: responses.annotator[r] });
    }
    const base = {
      kind,
      title: taskModule.title,
      metric,
      metricLabel: spec.label,
      items: itemCount.get(kind)!,
      answers: rows.length,
      people: new Set(cells.map((c) => c.person)).size,
      unitScale: true,
    };
    const shape = rows.length > 0 ? metricShape(kind, metric, [rows]) : null;
    if (rows.length === 0) {
      kinds.push({ ...base, components: null, reason: "no answers yet" });
      continue;
    }
    if (!shape) {
      kinds.push({ ...base, components: null, reason: `${spec.label} is not a mean of per-answer scores: no components` });
      continue;
    }
    const value = (score: unknown, name: string) => {
      const v = score && typeof score === "object" ? (score as Record<string, unknown>)[name] : undefined;
      return typeof v === "number" ? v : typeof v === "boolean" ? (v ? 1 : 0) : 1;
    };
    const crossed: CrossedAnswer[] = [];
    rows.forEach((row, i) => {
      const den = value(row.score, shape.denominator);
      if (den > 0) crossed.push({ item: cells[i].item, person: cells[i].person, num: value(row.score, shape.numerator), den });
    });
    const c = varianceComponents(crossed);
    const unitScale = crossed.every((a) => a.num / (a.den ?? 1) >= 0 && a.num / (a.den ?? 1) <= 1);
    if (c.items === null || c.people === null || c.residual === null) {
      kinds.push({
        ...base,
        unitScale,
        components: null,
        reason: `${c.personCount} ${c.personCount === 1 ? "person" : "people"} on ${c.itemCount} ${c.itemCount === 1 ? "item" : "items"} so far: the components need 2 people, 2 items and an item answered twice`,
      });
      continue;
    }
    kinds.push({ ...base, unitScale, components: { items: c.items, people: c.people, residual: c.residual } });
  }
  return { estimator: VARIANCE_COMPONENTS_ESTIMATOR, k: design.k, itemsPerPerson: design.itemsPerPerson, kinds };
}

/**
 * The Plan panel's data for a study, from its answers so far (the dashboard's snapshot), on the
 * dashboard's people: model agents and excluded participants are not people to plan on; null for
 * an unknown study.
 */
export async function planForStudy(slug: string): Promise<StudyPlanData | null> {
  const study = await findStudyDesign(slug);
  if (!study) return null;
  const [all, agents, excluded] = await Promise.all([getSnapshot(study.id), agentRuns(study.id), excludedParticipantIds(study.id)]);
  const snapshot = snapshotWithoutAnnotators(all, new Set([...agents.userIds, ...excluded]));
  return planFromSnapshot(snapshot, { k: study.overlap, itemsPerPerson: study.itemsPerParticipant });
}
