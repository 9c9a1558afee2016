import Link from "next/link";
import type { ItemReview } from "@/lib/annotate/research";
import { Card, CardHeader } from "@/components/ui/card";
import { Table, Td, Th } from "@/components/ui/table";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { formatDuration } from "@/components/replay/describe-event";
import { itemPageViewOf } from "@/components/tasks/key-views";

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

/** Every assignment of an item with its answer, result, times and a link to its replay (the item page of a study). */
export function ItemResponsesCard({ review, slug }: { review: ItemReview; slug: string }) {
  const { item, responses, study } = review;
  const page = itemPageViewOf(item.kind);
  return (
    <Card>
      <CardHeader
        title="Responses"
        description={`${responses.filter((r) => r.response).length} submitted of ${responses.length} assigned. Annotators are shown by pseudonym (A1, A2, ...: their order of joining ${study.title}) with their name, as stored in this study.`}
      />
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
                      <Badge tone={row.response.correct === null ? "slate" : row.response.correct ? "green" : "red"}>
                        {correctnessText(row.response.correct)}
                      </Badge>
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
  );
}
