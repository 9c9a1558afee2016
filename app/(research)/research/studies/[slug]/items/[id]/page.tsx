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
import { KeyView } from "@/components/review/key-view";
import { formatDuration } from "@/components/replay/describe-event";
import { itemPageViewOf } from "@/components/tasks/key-views";

export const metadata: Metadata = { title: "Item" };

/** An answer in one line: as the kind writes it (its item page view), else its JSON. */
function answerText(kind: string, answer: unknown): string {
  const own = itemPageViewOf(kind).answerText?.(answer);
  if (own) return own;
  const text = JSON.stringify(answer) ?? "";
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}

/** Correctness in words every kind shares; null: the item has no key, or the grade is pending. */
function correctnessText(correct: boolean | null): string {
  return correct === null ? "not scored" : correct ? "correct" : "incorrect";
}

export default async function ItemPage({ params }: { params: Promise<{ slug: string; id: string }> }) {
  const { slug, id } = await params;
  await requirePageRole(`/research/studies/${slug}/items/${id}`, "ADMIN", "RESEARCHER");
  const { item, responses, study } = await orPageError(getItemReview(slug, id));
  const page = itemPageViewOf(item.kind);
  const keyInTask = page.keyInTask && item.keyAnswer !== null ? page.keyInTask : null;
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

      {keyInTask ? (
        <Card>
          <CardHeader title={keyInTask.title} description={keyInTask.description} />
          <div className="p-3">
            <ItemKeyView kind={item.kind} view={item.view} keyAnswer={item.keyAnswer} notes={keyInTask.notes(item.review, item.keyAnswer)} />
          </div>
        </Card>
      ) : (
        <div className="grid gap-5 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
          <Card>
            <CardHeader title="The item" description="As annotators see it (playing a clip here records nothing)." />
            <div className="p-3">
              <ItemKeyView kind={item.kind} view={item.view} keyAnswer={null} />
            </div>
          </Card>
          <Card>
            <CardHeader title="The key" description="What answers are scored against; never sent to annotators." />
            <div className="p-3" data-testid="item-key">
              <KeyView kind={item.kind} view={item.review} />
            </div>
          </Card>
        </div>
      )}

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
                  <Td className="font-mono text-xs">
                    {row.response ? (
                      <span className="block max-w-[16rem] truncate" title={answerText(item.kind, row.response.answer)}>
                        {answerText(item.kind, row.response.answer)}
                      </span>
                    ) : (
                      <span className="text-slate-400">{row.status.toLowerCase()}</span>
                    )}
                  </Td>
                  <Td>
                    {row.response ? (
                      <span className="flex items-center gap-2">
                        <Badge tone={row.response.correct === null ? "slate" : row.response.correct ? "green" : "red"}>{correctnessText(row.response.correct)}</Badge>
                        <span className="text-xs text-slate-500">{page.scoreText?.(row.response.score) ?? ""}</span>
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
