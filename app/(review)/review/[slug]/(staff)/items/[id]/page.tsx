import type { Metadata } from "next";
import Link from "next/link";
import { requirePageRole } from "@/lib/auth/session";
import { orPageError } from "@/lib/annotate/page-access";
import { getReviewItemDetail } from "@/lib/review/results";
import { keepRuleLabels, tieRuleLabels } from "@/lib/review/rules";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { Table, Td, Th } from "@/components/ui/table";
import { AnnotatorView } from "@/components/review/annotator-view";
import { KeyView } from "@/components/review/key-view";
import { ScaledPreview } from "@/components/review/scaled-preview";
import { ItemMeta } from "@/components/review/item-meta";
import { OutcomeBadge } from "@/components/review/outcome";
import { DecisionForm } from "@/components/review/decision-form";

export const metadata: Metadata = { title: "Review item" };

/** One item for a researcher: as annotators see it, its key, every verdict, and the final decision. */
export default async function ReviewItemPage({ params }: { params: Promise<{ slug: string; id: string }> }) {
  const { slug, id } = await params;
  await requirePageRole(`/review/${slug}/items/${id}`, "ADMIN", "RESEARCHER");
  const detail = await orPageError(getReviewItemDetail(slug, id));
  const { row, study } = detail;
  const nextHref = detail.nextContested ? `/review/${slug}/items/${detail.nextContested}` : null;
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <Link href={`/review/${slug}/results`} className="text-slate-500 hover:text-slate-800">
          ← {study.title}
        </Link>
        <span className="max-w-[24rem] truncate font-mono text-xs text-slate-700" title={detail.item.externalId}>
          {detail.item.externalId}
        </span>
        <OutcomeBadge outcome={row.outcome} />
        {row.decision ? (
          <span className="text-xs text-slate-500">decided by {row.decision.by ?? "someone"}</span>
        ) : (
          <span className="text-xs text-slate-500">the rule says {row.ruleOutcome.toLowerCase()}</span>
        )}
        {row.contested ? <span className="rounded-full bg-amber-50 px-2 py-0.5 text-xs font-medium text-amber-800">in the contested queue</span> : null}
        {nextHref ? (
          <Link href={nextHref} className="ml-auto text-sm font-medium text-brand-700 hover:underline">
            Next contested →
          </Link>
        ) : null}
      </div>

      <div className="grid gap-3 xl:grid-cols-[minmax(0,1fr)_400px]">
        <Card className="self-start p-3">
          <ScaledPreview fit="width" label="As the annotator sees it" full={<AnnotatorView kind={detail.item.kind} view={detail.publicView} />}>
            <AnnotatorView kind={detail.item.kind} view={detail.publicView} />
          </ScaledPreview>
        </Card>
        <Card className="self-start border-amber-300">
          <CardHeader title="Answer key" description="The kind's reviewer view; annotators never see it." />
          <div className="max-h-[440px] space-y-3 overflow-y-auto p-3">
            <KeyView kind={detail.item.kind} view={detail.reviewView} />
            <ItemMeta item={detail.item} studyLinks />
          </div>
        </Card>
      </div>

      <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_420px]">
        <Card>
          <CardHeader
            title={`Verdicts (${row.reviews} of ${study.reviewersPerItem} reviews)`}
            description={`${keepRuleLabels[study.keepRule as keyof typeof keepRuleLabels]} · ${tieRuleLabels[study.tieRule as keyof typeof tieRuleLabels]}`}
          />
          {row.reviews === 0 ? (
            <CardBody>
              <p className="text-sm text-slate-500">No reviews yet.</p>
            </CardBody>
          ) : (
            <Table>
              <thead>
                <tr>
                  <Th>Axis</Th>
                  <Th>Reviewer</Th>
                  <Th>Verdict</Th>
                  <Th>Reason</Th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100" data-testid="item-verdicts">
                {row.votes.flatMap((votes) =>
                  votes.verdicts.map((verdict, i) => (
                    <tr key={`${votes.axis}-${i}`}>
                      <Td className="font-medium">{i === 0 ? (study.axes.find((a) => a.key === votes.axis)?.label ?? votes.axis) : ""}</Td>
                      <Td>{verdict.reviewer}</Td>
                      <Td>
                        <span
                          className={`rounded px-1.5 py-0.5 text-xs font-semibold ${verdict.pass ? "bg-emerald-50 text-emerald-700" : "bg-red-50 text-red-700"}`}
                        >
                          {verdict.pass ? "pass" : "fail"}
                        </span>
                      </Td>
                      <Td className="whitespace-normal text-slate-700">{verdict.reason ?? <span className="text-slate-400">–</span>}</Td>
                    </tr>
                  )),
                )}
              </tbody>
            </Table>
          )}
        </Card>
        <Card>
          <CardHeader
            title="Final decision"
            description={
              row.decision
                ? `Current: ${row.decision.decision === "KEEP" ? "keep" : "exclude"} (${row.decision.by ?? "someone"}, ${row.decision.at.slice(0, 16).replace("T", " ")})`
                : "Keep or exclude the item, whatever the rule says."
            }
          />
          <CardBody>
            <DecisionForm slug={slug} reviewItemId={row.reviewItemId} current={row.decision} nextHref={row.decision ? null : nextHref} />
          </CardBody>
        </Card>
      </div>
    </div>
  );
}
