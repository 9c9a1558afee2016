import { AgreementPlanButton } from "@/components/dashboard/agreement-plan-button";
import { levelName } from "@/components/dashboard/agreement-section";
import { count, fixed, interval, share } from "@/components/dashboard/format";
import type { PlanView } from "@/lib/dashboard/study-dashboard";
import type { KindInfo } from "@/lib/dashboard/accuracy";
import { INTERVAL_COMPUTING } from "@/lib/dashboard/constants";
import { sharedWords } from "@/components/dashboard/kind-words";

/**
 * The agreement plan: the one action, how far it is, and its alpha in the shape of the paragraph
 * of the human study it comes from (the kinds' words name it: AgreementPlanDesign).
 */
/** What the plan does, in the words of the study's kinds: a benchmark's own name and notes when every kind gives them (ENACT's). */
export function AgreementPlanDesign({ kinds: kindInfos, tagKey }: { kinds: Array<Pick<KindInfo, "kind" | "words">>; tagKey: string }) {
  const own = sharedWords(kindInfos, "agreementPlan");
  const kinds = kindInfos.map((info) => info.kind);
  return (
    <p className="max-w-3xl text-sm text-slate-600" data-testid="plan-design">
      {own ? own.name : `Cross-annotation, applied to ${kinds.length > 0 ? kinds.join(", ") : "this study's kinds"}`}: for each task kind and each {tagKey}{" "}
      value, sample items from each annotator&apos;s finished main work and assign them to all the other annotators, so every sampled item gets every annotator.
      Each person keeps their own n items per cell: with overlap, an item sampled for one person neither counts toward another&apos;s n nor is drawn again for
      them. Sampling is seeded; running it again assigns nothing twice. Annotators get these items before new main work. The answers given for the plan feed
      agreement, not accuracy.{" "}
      {own
        ? own.paper
        : "Every plan item goes to every annotator of the study, however many, and with overlap an item may already hold more than one main answer."}
    </p>
  );
}

/** Three annotators give three pairs, as in the human studies this paragraph follows; more pairs read as a range, the full list folded below it. */
const PAIRS_LISTED_IN_FULL = 6;

export interface AlphaPair {
  alpha: number | null;
  names: string;
}

/** Every pair of coders once (upper triangle of the pairwise matrix), named "A–B". */
export function pairwiseAlphaPairs(matrix: Array<Array<number | null>>, names: string[]): AlphaPair[] {
  const pairs: AlphaPair[] = [];
  for (let i = 0; i < names.length; i++)
    for (let j = i + 1; j < names.length; j++) pairs.push({ alpha: matrix[i]?.[j] ?? null, names: `${names[i]}–${names[j]}` });
  return pairs;
}

/** "pairwise alphas from 0.7944 (A–B) to 0.9052 (C–D), median 0.8541 over 36 pairs": the defined ones; the undefined are counted. */
export function pairwiseRangeText(pairs: AlphaPair[]): string {
  const defined = pairs.filter((pair): pair is { alpha: number; names: string } => pair.alpha !== null && Number.isFinite(pair.alpha));
  const undefinedCount = pairs.length - defined.length;
  const undefinedText = undefinedCount > 0 ? ` (${undefinedCount} undefined)` : "";
  if (defined.length === 0) return `pairwise alphas undefined for all ${pairs.length} pairs`;
  const sorted = [...defined].sort((x, y) => x.alpha - y.alpha);
  const middle = sorted.length / 2;
  const median = sorted.length % 2 === 1 ? sorted[Math.floor(middle)].alpha : (sorted[middle - 1].alpha + sorted[middle].alpha) / 2;
  const low = sorted[0];
  const high = sorted[sorted.length - 1];
  return `pairwise alphas from ${fixed(low.alpha)} (${low.names}) to ${fixed(high.alpha)} (${high.names}), median ${fixed(median)} over ${pairs.length} pairs${undefinedText}`;
}

export function AgreementPlanSection({
  plan,
  annotatorNames,
  slug,
  tagKey,
  perCell,
  kinds: kindInfos = [],
}: {
  plan: PlanView;
  annotatorNames: string[];
  slug: string;
  tagKey: string;
  perCell: number;
  kinds?: Array<Pick<KindInfo, "kind" | "words">>;
}) {
  const a = plan.agreement;
  const names = a ? a.coders.map((c) => annotatorNames[c] ?? `#${c}`) : [];
  const pairs = a ? pairwiseAlphaPairs(a.pairwise.matrix, names) : [];
  const listed = pairs.map((pair) => `${fixed(pair.alpha)} (${pair.names})`);
  return (
    <div className="space-y-4">
      <AgreementPlanDesign kinds={kindInfos} tagKey={tagKey} />
      <AgreementPlanButton slug={slug} defaultPerCell={perCell} tagKey={tagKey} />
      {plan.planned > 0 ? (
        <dl className="grid max-w-2xl grid-cols-3 gap-3 text-sm" data-testid="plan-status">
          <div className="rounded-md border border-slate-200 px-3 py-2">
            <dt className="text-xs text-slate-500">Items in the plan</dt>
            <dd className="text-lg font-semibold tabular-nums">{count(plan.planned)}</dd>
          </div>
          <div className="rounded-md border border-slate-200 px-3 py-2">
            <dt className="text-xs text-slate-500">Agreement assignments done</dt>
            <dd className="text-lg font-semibold tabular-nums">
              {count(plan.assignmentsDone)} <span className="text-sm font-normal text-slate-500">of {count(plan.assignments)}</span>
            </dd>
          </div>
          <div className="rounded-md border border-slate-200 px-3 py-2">
            <dt className="text-xs text-slate-500">Items with every annotator&apos;s answer</dt>
            <dd className="text-lg font-semibold tabular-nums">{count(plan.complete)}</dd>
          </div>
        </dl>
      ) : null}
      {a ? (
        <blockquote
          className="max-w-4xl border-l-4 border-brand-500 bg-brand-50/50 px-4 py-3 text-sm leading-relaxed text-slate-800"
          data-testid="plan-paragraph"
        >
          On the {count(a.overall.items)} items with all {names.length} annotators&apos; answers, Krippendorff&apos;s alpha ({levelName(a.level)};{" "}
          {a.encoding.label.toLowerCase()}){" "}
          {a.overall.alpha === null ? (
            <>is undefined: {a.overall.reason}</>
          ) : (
            <>
              = <strong>{fixed(a.overall.alpha)}</strong>
              {a.overall.ci ? (
                <>
                  , {interval(a.overall.ci)} by {a.overall.ciDescription}
                </>
              ) : (
                <> ({a.overall.ciReason === INTERVAL_COMPUTING ? "interval computing…" : `no interval: ${a.overall.ciReason}`})</>
              )}
            </>
          )}
          ; {pairs.length <= PAIRS_LISTED_IN_FULL ? <>pairwise alphas {listed.join(", ") || "n/a"}</> : pairwiseRangeText(pairs)}; perfect agreement on{" "}
          {share(a.overall.perfectItems.agreeing, a.overall.perfectItems.total, "item")}.
          {pairs.length > PAIRS_LISTED_IN_FULL ? (
            <details className="mt-2 text-xs text-slate-600">
              <summary className="cursor-pointer">All {pairs.length} pairwise alphas</summary>
              <p className="mt-1">{listed.join(", ")}.</p>
            </details>
          ) : null}
        </blockquote>
      ) : plan.planned > 0 ? (
        <p className="text-sm text-slate-500">The plan&apos;s alpha appears once items have every annotator&apos;s answer.</p>
      ) : null}
    </div>
  );
}
