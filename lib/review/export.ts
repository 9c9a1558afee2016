import "server-only";
import { createHash } from "node:crypto";
import { csvRow } from "@/lib/exports/csv";
import { listReviewerIdsInJoinOrder, readVerdictExportPage } from "@/lib/repos/review";
import { getReviewStudyBySlug } from "@/lib/review/studies";

/**
 * The verdicts of a review study as a stream (docs/review.md, "Export"): one record per verdict
 * (review x axis), with the item's outcome and the researcher's decision, as CSV or JSONL. Read
 * in keyset-paginated batches of EXPORT_BATCH rows: nothing holds the whole table in memory.
 * Reviewers appear as R1, R2, ... and a pseudonymous id; never a name or an email.
 */

const EXPORT_BATCH = 2000;

export const REVIEW_EXPORT_COLUMNS = [
  "review_study",
  "item_id",
  "content_hash",
  "kind",
  "reviewer",
  "reviewer_id",
  "axis",
  "verdict",
  "reason",
  "submitted_at",
  "reviews",
  "rule_outcome",
  "outcome",
  "split",
  "decision",
  "decision_note",
  "tags",
] as const;

/** "rev_" + 12 hex digits of sha256(reviewStudyId:userId): stable within the review study. */
export function reviewerPseudonym(reviewStudyId: string, userId: string): string {
  return `rev_${createHash("sha256").update(`${reviewStudyId}:${userId}`).digest("hex").slice(0, 12)}`;
}

export async function createReviewExport(slug: string, format: "csv" | "jsonl") {
  const study = await getReviewStudyBySlug(slug);
  const members = await listReviewerIdsInJoinOrder(study.id);
  const labels = new Map(members.map((m, i) => [m.userId, `R${i + 1}`]));
  const encoder = new TextEncoder();
  let after = "";
  let headerSent = format !== "csv";
  let done = false;

  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        if (!headerSent) {
          headerSent = true;
          controller.enqueue(encoder.encode(csvRow([...REVIEW_EXPORT_COLUMNS])));
          return;
        }
        if (done) {
          controller.close();
          return;
        }
        const rows = await readVerdictExportPage(study.id, after, EXPORT_BATCH);
        if (rows.length < EXPORT_BATCH) done = true;
        if (rows.length === 0) {
          controller.close();
          return;
        }
        after = rows[rows.length - 1].id;
        const text = rows
          .map((row) => {
            const record: Record<(typeof REVIEW_EXPORT_COLUMNS)[number], unknown> = {
              review_study: study.slug,
              item_id: row.externalId,
              content_hash: row.contentHash,
              kind: row.kind,
              reviewer: labels.get(row.userId) ?? null,
              reviewer_id: reviewerPseudonym(study.id, row.userId),
              axis: row.axis,
              verdict: row.pass ? "pass" : "fail",
              reason: row.reason,
              submitted_at: row.submittedAt,
              reviews: row.reviews,
              rule_outcome: row.ruleOutcome,
              outcome: row.outcome,
              split: row.split,
              decision: row.decision,
              decision_note: row.note,
              tags: row.tags ?? {},
            };
            return format === "csv" ? csvRow(REVIEW_EXPORT_COLUMNS.map((column) => record[column])) : `${JSON.stringify(record)}\n`;
          })
          .join("");
        controller.enqueue(encoder.encode(text));
      } catch (error) {
        controller.error(error);
      }
    },
  });
  return {
    stream,
    fileName: `${study.slug}-verdicts.${format}`,
    contentType: format === "csv" ? "text/csv; charset=utf-8" : "application/x-ndjson; charset=utf-8",
  };
}
