import type { Metadata } from "next";
import Link from "next/link";
import { requirePageRole } from "@/lib/auth/session";
import { getItemReview } from "@/lib/annotate/research";
import { orPageError } from "@/lib/annotate/page-access";
import { Card, CardHeader } from "@/components/ui/card";
import { Table, Td, Th } from "@/components/ui/table";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { ItemKeyView } from "@/components/replay/item-key-view";
import { formatDuration } from "@/components/replay/describe-event";
import { letterOf, type SlotNote } from "@/components/tasks/shared/types";

export const metadata: Metadata = { title: "Item" };

interface ReviewStep {
  visibleChange?: string[] | null;
  stepChanges?: string[] | null;
  actionChanges?: string[] | null;
  facts?: string[] | null;
}

function reviewSteps(review: unknown): ReviewStep[] {
  if (!review || typeof review !== "object") return [];
  const record = review as { steps?: ReviewStep[]; transitions?: ReviewStep[] };
  return record.steps ?? record.transitions ?? [];
}

function scoreText(score: unknown): string {
  if (!score || typeof score !== "object") return "";
  const s = score as { correctPairs?: number; L?: number };
  return typeof s.correctPairs === "number" && typeof s.L === "number" ? `${Math.round(s.correctPairs * 100) / 100} / ${s.L} pairs` : "";
}

export default async function ItemPage({ params }: { params: Promise<{ slug: string; id: string }> }) {
  const { slug, id } = await params;
  await requirePageRole(`/research/studies/${slug}/items/${id}`, "ADMIN", "RESEARCHER");
  const { item, responses, study } = await orPageError(getItemReview(slug, id));
  const steps = reviewSteps(item.review);
  const notes: Array<SlotNote | null> = (item.keyOrder ?? []).map((_, i) => {
    const changes = steps[i]?.visibleChange ?? steps[i]?.stepChanges ?? null;
    return { tone: "neutral", text: changes && changes.length > 0 ? changes.join(" ") : "key" };
  });
  const tags = item.tags && typeof item.tags === "object" ? Object.entries(item.tags as Record<string, unknown>) : [];
  return (
    <div className="space-y-5">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <Link href={`/research/studies/${slug}`} className="text-slate-500 hover:text-slate-800">
          ← Items
        </Link>
        <span className="font-mono text-xs text-slate-700" title={item.externalId}>
          {item.externalId}
        </span>
        <Badge tone="violet">{item.kind}</Badge>
        {item.practice ? <Badge tone="blue">practice</Badge> : null}
        {item.gold ? <Badge tone="amber">gold</Badge> : null}
        {tags.map(([key, value]) => (
          <span key={key} className="rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-600">
            {key}: {String(value)}
          </span>
        ))}
        <span className="text-xs text-slate-400">batch {item.batch}</span>
      </div>

      <Card>
        <CardHeader title="The item, with the key's order" description="As annotators see it; the steps hold the right order. Under each step: the reference change (when the key has one)." />
        <div className="p-3">
          <ItemKeyView kind={item.kind} view={item.view} keyOrder={item.keyOrder} notes={notes} />
        </div>
      </Card>

      <Card>
        <CardHeader title="Responses" description={`${responses.filter((r) => r.response).length} submitted of ${responses.length} assigned. Annotators are shown by pseudonym (A1, A2, ...: their order of joining ${study.title}) with their name, as stored in this study.`} />
        {responses.length === 0 ? (
          <div className="p-5">
            <EmptyState title="Nobody has this item yet" />
          </div>
        ) : (
          <Table>
            <thead>
              <tr>
                <Th>Annotator</Th>
                <Th>Purpose</Th>
                <Th>Answer</Th>
                <Th>Result</Th>
                <Th align="right">Confidence</Th>
                <Th align="right">Active / wall</Th>
                <Th align="right">Events</Th>
                <Th>Trajectory</Th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {responses.map((row) => (
                <tr key={row.assignmentId}>
                  <Td>
                    <span className="font-semibold">{row.annotator.pseudonym}</span> <span className="text-slate-500">{row.annotator.name}</span>
                  </Td>
                  <Td>{row.purpose.toLowerCase()}</Td>
                  <Td className="font-mono text-xs">{row.response?.order ? row.response.order.map((c, s) => `${s + 1}:${letterOf(c)}`).join(" ") : <span className="text-slate-400">{row.status.toLowerCase()}</span>}</Td>
                  <Td>
                    {row.response ? (
                      <span className="flex items-center gap-2">
                        {row.response.correct === null ? <Badge tone="slate">no correctness</Badge> : <Badge tone={row.response.correct ? "green" : "red"}>{row.response.correct ? "accepted" : "not accepted"}</Badge>}
                        <span className="text-xs text-slate-500">{scoreText(row.response.score)}</span>
                      </span>
                    ) : null}
                  </Td>
                  <Td align="right" className="tabular-nums">
                    {row.response ? `${row.response.confidenceRaw}${study.confidenceScale === "PERCENT" ? "%" : "/5"}` : ""}
                  </Td>
                  <Td align="right" className="tabular-nums">
                    {row.response ? `${formatDuration(row.response.activeMs)} / ${formatDuration(row.response.wallMs)}` : ""}
                  </Td>
                  <Td align="right" className="tabular-nums">
                    {row.events}
                  </Td>
                  <Td>
                    {row.events > 0 ? (
                      <Link href={`/research/studies/${slug}/replay/${row.assignmentId}`} className="font-medium text-brand-700 hover:underline">
                        Replay
                      </Link>
                    ) : (
                      <span className="text-slate-400">none</span>
                    )}
                  </Td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </Card>
    </div>
  );
}
