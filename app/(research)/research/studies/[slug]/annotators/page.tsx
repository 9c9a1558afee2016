import type { Metadata } from "next";
import { requirePageRole } from "@/lib/auth/session";
import { getAnnotatorsOverview } from "@/lib/dashboard/annotators";
import { FOCUS_LOSS_EVENT_TYPES } from "@/lib/dashboard/constants";
import { listStudyMembersFor } from "@/lib/studies/members";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { CsvDownload } from "@/components/charts/csv-download";
import { MembersManager } from "@/components/dashboard/members-manager";
import { levelName } from "@/components/dashboard/agreement-section";
import { fixed } from "@/components/dashboard/format";
import { AnnotatorQualityTable } from "@/components/dashboard/annotator-quality-table";

export const metadata: Metadata = { title: "Annotators" };

export default async function AnnotatorsPage({
  params,
  searchParams,
}: {
  params: Promise<{ slug: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { slug } = await params;
  const user = await requirePageRole(`/research/studies/${slug}/annotators`, "ADMIN", "RESEARCHER");
  const [overview, { members, candidates }] = await Promise.all([getAnnotatorsOverview(slug, await searchParams), listStudyMembersFor(slug, user)]);
  const canManage = candidates !== undefined;
  const overall = overview.agreement?.overall ?? null;
  const agreementLabel = overview.agreement ? `${levelName(overview.agreement.level)}; ${overview.agreement.encoding.label.toLowerCase()}` : null;

  return (
    <div className="space-y-6">
      <Card>
        <CardHeader
          title="Annotator quality"
          description={
            <>
              Practice excluded. Agreement: Krippendorff&apos;s alpha of the others when the annotator is left out
              {agreementLabel ? ` (${agreementLabel})` : " (no agreement encoding for this study's task kinds)"}; everyone together:{" "}
              <strong>{overall ? (overall.alpha === null ? `undefined (${overall.reason})` : fixed(overall.alpha)) : "n/a"}</strong>. Higher without someone
              means they disagree with the rest.
            </>
          }
          actions={
            <CsvDownload
              fileName={`${slug}-annotator-quality`}
              header={[
                "name",
                "items_done",
                "correct",
                "accuracy_n",
                "without_correctness",
                "accuracy",
                "accuracy_ci_lower",
                "accuracy_ci_upper",
                "mean_confidence",
                "median_active_ms",
                "median_wall_ms",
                "relative_time",
                "far_faster",
                "alpha_without",
                "focus_losses",
              ]}
              rows={overview.rows.map((r) => [
                r.name,
                r.done,
                r.accuracy?.correct ?? null,
                r.accuracy?.n ?? null,
                r.withoutCorrectness,
                r.accuracy?.share ?? null,
                r.accuracy?.lower ?? null,
                r.accuracy?.upper ?? null,
                r.meanConfidence,
                r.medianActiveMs,
                r.medianWallMs,
                r.relativeSpeed,
                r.farFaster,
                r.alphaWithout?.alpha ?? null,
                r.focusLosses,
              ])}
            />
          }
        />
        {overview.rows.length === 0 ? (
          <CardBody>
            <p className="text-sm text-slate-500">No annotators have work in this study yet.</p>
          </CardBody>
        ) : (
          <AnnotatorQualityTable rows={overview.rows} />
        )}
        <CardBody className="border-t border-slate-100 text-xs text-slate-500">
          Accuracy: share of answers the task&apos;s scorer counts as right, with a Wilson interval
          {overview.pooledConditions.length > 0
            ? `, over every condition the person answered in (${overview.pooledConditions.join(", ")}; the Dashboard tab keeps them apart)`
            : ""}
          . Time: active time per item (the median); relative time compares it with others on the same task
          {overview.tagKey ? ` and ${overview.tagKey} value` : ""}, and flags far-faster annotators ({overview.flagNote ?? "modified z-score below −3.5"}).
          Focus losses: trajectory events of type {FOCUS_LOSS_EVENT_TYPES.join(", ")} (tab or window left).
        </CardBody>
      </Card>

      <Card>
        <CardHeader
          title="Members"
          description={
            canManage
              ? "Annotators who may work on this study. Removing someone keeps their answers."
              : "Annotators who may work on this study. Admins and the study's owner add and remove members."
          }
        />
        <CardBody>
          <MembersManager
            slug={slug}
            canManage={canManage}
            members={members.map((m) => ({ ...m, joinedAt: m.joinedAt.toISOString() }))}
            candidates={candidates ?? []}
          />
        </CardBody>
      </Card>
    </div>
  );
}
