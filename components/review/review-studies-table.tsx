import Link from "next/link";
import type { listReviewStudies } from "@/lib/review/studies";
import { Table, Td, Th } from "@/components/ui/table";
import { Badge } from "@/components/ui/badge";

type ReviewStudies = Awaited<ReturnType<typeof listReviewStudies>>;

/** Every review study with its items by outcome (the review home page, for staff). */
export function ReviewStudiesTable({ studies }: { studies: ReviewStudies }) {
  return (
    <Table>
      <thead>
        <tr>
          <Th>Review study</Th>
          <Th>Status</Th>
          <Th align="right">Items</Th>
          <Th align="right">Pending</Th>
          <Th align="right">Kept</Th>
          <Th align="right">Excluded</Th>
          <Th align="right">To settle</Th>
          <Th align="right">Reviewers</Th>
          <Th />
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {studies.map((study) => (
          <tr key={study.id} className="hover:bg-slate-50">
            <Td>
              <Link href={`/review/${study.slug}/results`} className="font-medium text-brand-700 hover:underline">
                {study.title}
              </Link>
              <span className="ml-2 font-mono text-xs text-slate-500">{study.slug}</span>
            </Td>
            <Td>
              <Badge tone={study.status === "OPEN" ? "green" : "slate"}>{study.status.toLowerCase()}</Badge>
            </Td>
            <Td align="right" className="tabular-nums">
              {study._count.items}
            </Td>
            <Td align="right" className="tabular-nums text-slate-500">
              {study.byOutcome.PENDING}
            </Td>
            <Td align="right" className="tabular-nums text-emerald-700">
              {study.byOutcome.KEPT}
            </Td>
            <Td align="right" className="tabular-nums text-red-700">
              {study.byOutcome.EXCLUDED}
            </Td>
            <Td align="right" className="tabular-nums text-amber-700">
              {study.toSettle}
            </Td>
            <Td align="right" className="tabular-nums">
              {study._count.reviewers}
            </Td>
            <Td align="right">
              <Link href={`/review/${study.slug}/results`} className="font-medium text-brand-700 hover:underline">
                Results
              </Link>
            </Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
