import type { Metadata } from "next";
import { requirePageRole } from "@/lib/auth/session";
import { getAnnotatorsOverview } from "@/lib/dashboard/annotators";
import { FOCUS_LOSS_EVENT_TYPES } from "@/lib/dashboard/constants";
import { listMemberCandidates, listStudyMembers } from "@/lib/studies/members";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { Table, Td, Th } from "@/components/ui/table";
import { Badge } from "@/components/ui/badge";
import { CsvDownload } from "@/components/charts/csv-download";
import { MembersManager } from "@/components/dashboard/members-manager";
import { levelName } from "@/components/dashboard/agreement-section";
import { count, duration, fixed, pct, pctInterval } from "@/components/dashboard/format";

export const metadata: Metadata = { title: "Annotators" };

export default async function AnnotatorsPage({ params, searchParams }: { params: Promise<{ slug: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { slug } = await params;
  const user = await requirePageRole(`/research/studies/${slug}/annotators`, "ADMIN", "RESEARCHER");
  const isAdmin = user.role === "ADMIN";
  const [overview, members, candidates] = await Promise.all([getAnnotatorsOverview(slug, await searchParams), listStudyMembers(slug), isAdmin ? listMemberCandidates(slug) : Promise.resolve([])]);
  const overall = overview.agreement?.overall ?? null;
  const agreementLabel = overview.agreement ? `${levelName(overview.agreement.level)}; ${overview.agreement.encoding.label.toLowerCase()}` : null;

  return (
    <div className="space-y-6">
      <Card>
        <CardHeader
          title="Annotator quality"
          description={
            <>
              Practice excluded. Agreement: Krippendorff&apos;s alpha of the others when the annotator is left out{agreementLabel ? ` (${agreementLabel})` : " (no agreement encoding for this study's task kinds)"}; everyone together:{" "}
              <strong>{overall ? (overall.alpha === null ? `undefined (${overall.reason})` : fixed(overall.alpha)) : "n/a"}</strong>. Higher without someone means they disagree with the rest.
            </>
          }
          actions={
            <CsvDownload
              fileName={`${slug}-annotator-quality`}
              header={["name", "items_done", "correct", "accuracy_n", "without_correctness", "accuracy", "accuracy_ci_lower", "accuracy_ci_upper", "mean_confidence", "median_active_ms", "median_wall_ms", "relative_time", "far_faster", "alpha_without", "focus_losses"]}
              rows={overview.rows.map((r) => [r.name, r.done, r.accuracy?.correct ?? null, r.accuracy?.n ?? null, r.withoutCorrectness, r.accuracy?.share ?? null, r.accuracy?.lower ?? null, r.accuracy?.upper ?? null, r.meanConfidence, r.medianActiveMs, r.medianWallMs, r.relativeSpeed, r.farFaster, r.alphaWithout?.alpha ?? null, r.focusLosses])}
            />
          }
        />
        {overview.rows.length === 0 ? (
          <CardBody>
            <p className="text-sm text-slate-500">No annotators have work in this study yet.</p>
          </CardBody>
        ) : (
          <Table>
            <thead>
              <tr>
                <Th>Annotator</Th>
                <Th align="right">Items done</Th>
                <Th align="right">Accuracy (95% CI)</Th>
                <Th align="right">Mean confidence</Th>
                <Th align="right">Median time</Th>
                <Th align="right">Relative time</Th>
                <Th align="right">Alpha without</Th>
                <Th align="right">Focus losses</Th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100" data-testid="annotator-quality">
              {overview.rows.map((r) => (
                <tr key={r.userId}>
                  <Td className="min-w-[8rem] max-w-[14rem] whitespace-normal font-medium [overflow-wrap:anywhere]">
                    {r.name} {!r.member ? <span className="text-xs font-normal text-slate-400">(not a member)</span> : null}
                  </Td>
                  <Td align="right" className="tabular-nums">{count(r.done)}</Td>
                  <Td align="right" className="tabular-nums">
                    {r.accuracy ? (
                      <>
                        {pct(r.accuracy.share, 1)}% <span className="text-xs text-slate-500">{pctInterval([r.accuracy.lower, r.accuracy.upper])}</span>
                      </>
                    ) : (
                      "–"
                    )}
                    {r.withoutCorrectness > 0 ? <div className="text-[11px] text-slate-500" data-testid="without-correctness">of {count(r.accuracy?.n ?? 0)}; {count(r.withoutCorrectness)} without a correctness left out</div> : null}
                  </Td>
                  <Td align="right" className="tabular-nums">{r.meanConfidence === null ? "–" : `${pct(r.meanConfidence, 1)}%`}</Td>
                  <Td align="right" className="tabular-nums" >
                    <span title={`wall: ${duration(r.medianWallMs)}`}>{duration(r.medianActiveMs)}</span>
                  </Td>
                  <Td align="right" className="tabular-nums">
                    {r.relativeSpeed === null ? "–" : `×${r.relativeSpeed.toFixed(2)}`} {r.farFaster ? <Badge tone="red">far faster</Badge> : null}
                  </Td>
                  <Td align="right" className="tabular-nums">
                    {r.alphaWithout === null ? "–" : r.alphaWithout.alpha === null ? <span className="text-xs text-slate-500" title={r.alphaWithout.reason}>n/a</span> : fixed(r.alphaWithout.alpha, 3)}
                  </Td>
                  <Td align="right" className="tabular-nums">{count(r.focusLosses)}</Td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
        <CardBody className="border-t border-slate-100 text-xs text-slate-500">
          Accuracy: share of answers the task&apos;s scorer counts as right, with a Wilson interval. Time: active time per item (the median); relative time compares it with others on the same task
          {overview.tagKey ? ` and ${overview.tagKey} value` : ""}, and flags far-faster annotators ({overview.flagNote ?? "modified z-score below −3.5"}). Focus losses: trajectory events of type {FOCUS_LOSS_EVENT_TYPES.join(", ")} (tab or window left).
        </CardBody>
      </Card>

      <Card>
        <CardHeader title="Members" description={isAdmin ? "Annotators who may work on this study. Removing someone keeps their answers." : "Annotators who may work on this study. Admins add and remove members."} />
        <CardBody>
          <MembersManager slug={slug} isAdmin={isAdmin} members={members.map((m) => ({ ...m, joinedAt: m.joinedAt.toISOString() }))} candidates={candidates} />
        </CardBody>
      </Card>
    </div>
  );
}
