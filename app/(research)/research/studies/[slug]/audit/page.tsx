import type { Metadata } from "next";
import { requirePageRole } from "@/lib/auth/session";
import { orPageError } from "@/lib/annotate/page-access";
import { auditQuerySchema, listStudyAudit } from "@/lib/audit/log";
import { Card, CardHeader } from "@/components/ui/card";
import { Table, Td, Th } from "@/components/ui/table";
import { ButtonLink } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";

export const metadata: Metadata = { title: "Audit log" };

/** "changes: title, goldRate; consentVersionRaised: true" from an entry's detail, ids and the slug left out. */
function describe(detail: unknown): string {
  if (!detail || typeof detail !== "object") return "";
  return Object.entries(detail as Record<string, unknown>)
    .filter(([key, value]) => key !== "slug" && key !== "studyId" && key !== "studySlug" && value !== null && value !== undefined)
    .map(([key, value]) => {
      if (key === "changes" && value && typeof value === "object") {
        return Object.entries(value as Record<string, { from: unknown; to: unknown }>)
          .map(([field, change]) => `${field}: ${JSON.stringify(change.from)} → ${JSON.stringify(change.to)}`)
          .join("; ");
      }
      return `${key}: ${typeof value === "string" ? value : JSON.stringify(value)}`;
    })
    .join(" · ");
}

export default async function AuditPage({
  params,
  searchParams,
}: {
  params: Promise<{ slug: string }>;
  searchParams: Promise<Record<string, string | undefined>>;
}) {
  const { slug } = await params;
  await requirePageRole(`/research/studies/${slug}/audit`, "ADMIN", "RESEARCHER");
  const parsed = auditQuerySchema.safeParse(await searchParams);
  const page = parsed.success ? parsed.data.page : 1;
  const { entries, total, pageSize } = await orPageError(listStudyAudit(slug, page));
  const pages = Math.max(1, Math.ceil(total / pageSize));
  return (
    <Card>
      <CardHeader
        title="Audit log"
        description={`What admins, researchers and participants did to this study: imports, settings, status, links and invites, participant status, withdrawals, exports. ${total} entr${total === 1 ? "y" : "ies"}, newest first; times in UTC.`}
      />
      {entries.length === 0 ? (
        <div className="px-5 py-6">
          <EmptyState title="Nothing yet" description="Actions on this study appear here." />
        </div>
      ) : (
        <Table>
          <thead>
            <tr>
              <Th>When</Th>
              <Th>Who</Th>
              <Th>Action</Th>
              <Th>Details</Th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100" data-testid="audit-entries">
            {entries.map((entry) => (
              <tr key={entry.id} className="align-top">
                <Td className="text-xs tabular-nums">{entry.at.slice(0, 19).replace("T", " ")}</Td>
                <Td className="text-xs">{entry.actor ? `${entry.actor.name} (${entry.actor.role.toLowerCase()})` : "system"}</Td>
                <Td className="font-mono text-xs">{entry.action}</Td>
                <Td className="max-w-[48rem] whitespace-normal break-words text-xs text-slate-600">{describe(entry.detail)}</Td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      {pages > 1 ? (
        <div className="flex items-center justify-between px-5 py-3 text-sm text-slate-600">
          <span>
            Page {page} of {pages}
          </span>
          <div className="flex gap-2">
            {page > 1 ? (
              <ButtonLink size="sm" variant="secondary" href={`?page=${page - 1}`}>
                Newer
              </ButtonLink>
            ) : null}
            {page < pages ? (
              <ButtonLink size="sm" variant="secondary" href={`?page=${page + 1}`}>
                Older
              </ButtonLink>
            ) : null}
          </div>
        </div>
      ) : null}
    </Card>
  );
}
