import type { Metadata } from "next";
import Link from "next/link";
import { requirePageRole } from "@/lib/auth/session";
import { getStudyBySlug, listAdminContacts, listStudyBatches, listStudyItems, studyFacets } from "@/lib/studies/studies";
import { itemFilterSchema } from "@/lib/validations/study";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { Table, Td, Th } from "@/components/ui/table";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { ButtonLink } from "@/components/ui/button";
import { reviewFlagsForStudy } from "@/lib/review/exclusion";
import { StudyNextStep } from "@/components/research/study-next-step";
import { ItemRoleControl } from "@/components/research/item-role-control";

export const metadata: Metadata = { title: "Study" };

function tagText(tags: unknown): Array<[string, string]> {
  if (!tags || typeof tags !== "object") return [];
  return Object.entries(tags as Record<string, unknown>).map(([key, value]) => [key, String(value)]);
}

export default async function StudyOverviewPage({ params, searchParams }: { params: Promise<{ slug: string }>; searchParams: Promise<Record<string, string | undefined>> }) {
  const { slug } = await params;
  const user = await requirePageRole(`/research/studies/${slug}`, "ADMIN", "RESEARCHER");
  const study = await getStudyBySlug(slug);
  const parsed = itemFilterSchema.safeParse(await searchParams);
  const filter = parsed.success ? parsed.data : { page: 1 };
  const [batches, facets, { items, total, pageSize }, reviewFlags] = await Promise.all([listStudyBatches(study.id), studyFacets(study.id), listStudyItems(study.id, filter), reviewFlagsForStudy(study.id)]);
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const itemCount = facets.kinds.reduce((sum, k) => sum + k.count, 0);
  // an empty study: the next step the viewer's role can take (a researcher asks an admin)
  const admins = itemCount === 0 && user.role !== "ADMIN" ? await listAdminContacts() : [];
  const base = `/research/studies/${slug}`;
  const link = (next: Partial<{ kind: string; tag: string; page: number }>) => {
    const query = new URLSearchParams();
    const merged = { kind: filter.kind, tag: filter.tag, page: 1, ...next };
    if (merged.kind) query.set("kind", merged.kind);
    if (merged.tag) query.set("tag", merged.tag);
    if (merged.page && merged.page > 1) query.set("page", String(merged.page));
    const text = query.toString();
    return text ? `${base}?${text}` : base;
  };

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap justify-end gap-2">
        <ButtonLink href={`${base}/preview`} variant="secondary" size="sm">
          Preview as a participant
        </ButtonLink>
      </div>
      {itemCount === 0 ? <StudyNextStep slug={slug} title={study.title} role={user.role === "ADMIN" ? "ADMIN" : "RESEARCHER"} admins={admins} /> : null}
      <div className="grid gap-4 md:grid-cols-4">
        {[
          ["Items", itemCount],
          ["Batches", batches.length],
          ["Annotators per item", study.overlap],
          ["Confidence scale", study.confidenceScale === "LIKERT_5" ? "1–5" : "0–100%"],
        ].map(([label, value]) => (
          <Card key={label} className="px-5 py-4">
            <div className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</div>
            <div className="mt-1 text-2xl font-semibold tabular-nums">{value}</div>
          </Card>
        ))}
      </div>

      <Card>
        <CardHeader title="Batches" description="Each import is one batch; importing the same batch again changes nothing." actions={user.role === "ADMIN" ? <ButtonLink href={`/admin/import?study=${slug}`} size="sm">Import a batch</ButtonLink> : null} />
        {batches.length === 0 ? (
          <CardBody>
            <EmptyState title="No batches yet" description={user.role === "ADMIN" ? "Import items.jsonl with its images, as a folder or a .zip." : "An admin imports item batches into this study."} />
          </CardBody>
        ) : (
          <Table>
            <thead>
              <tr>
                <Th>File</Th>
                <Th align="right">Items</Th>
                <Th>Imported by</Th>
                <Th>When</Th>
                <Th>Checksum</Th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {batches.map((batch) => (
                <tr key={batch.id}>
                  <Td className="font-medium">{batch.fileName}</Td>
                  <Td align="right" className="tabular-nums">{batch.itemCount}</Td>
                  <Td>{batch.importedBy?.name ?? "command line"}</Td>
                  <Td>{batch.createdAt.toISOString().slice(0, 16).replace("T", " ")}</Td>
                  <Td className="font-mono text-xs text-slate-500">{batch.checksum.slice(0, 12)}</Td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </Card>

      <Card>
        <CardHeader title="Items" description={`${total} item${total === 1 ? "" : "s"}${filter.kind || filter.tag ? " match the filter" : ""}`} />
        <div className="flex flex-wrap items-center gap-2 border-b border-slate-100 px-5 py-3 text-sm" aria-label="Filters">
          <span className="text-slate-500">Kind:</span>
          <FilterChip href={link({ kind: undefined })} active={!filter.kind}>all</FilterChip>
          {facets.kinds.map((k) => (
            <FilterChip key={k.kind} href={link({ kind: k.kind })} active={filter.kind === k.kind}>
              {k.kind} <span className="text-slate-400">{k.count}</span>
            </FilterChip>
          ))}
        </div>
        {facets.tags.length > 0 ? (
          <div className="space-y-1.5 border-b border-slate-100 px-5 py-3 text-sm">
            {facets.tags.map((tag) => (
              <div key={tag.key} className="flex flex-wrap items-center gap-1.5">
                <span className="w-20 shrink-0 text-slate-500">{tag.key}:</span>
                {tag.values.slice(0, 24).map((v) => {
                  const value = `${tag.key}=${v.value}`;
                  return (
                    <FilterChip key={value} href={link({ tag: filter.tag === value ? undefined : value })} active={filter.tag === value}>
                      {v.value} <span className="text-slate-400">{v.count}</span>
                    </FilterChip>
                  );
                })}
              </div>
            ))}
          </div>
        ) : null}
        {items.length === 0 ? (
          <CardBody>
            <EmptyState title={total === 0 && !filter.kind && !filter.tag ? "No items yet" : "No items match"} description={filter.kind || filter.tag ? <Link className="text-brand-600 underline" href={base}>Clear the filters</Link> : user.role === "ADMIN" ? "Import a batch to add items." : "An admin imports item batches: see the next step above."} />
          </CardBody>
        ) : (
          <>
            <Table>
              <thead>
                <tr>
                  <Th>Item</Th>
                  <Th>Kind</Th>
                  <Th>Tags</Th>
                  <Th>Role</Th>
                  <Th>Flags</Th>
                  <Th align="right">Responses</Th>
                  <Th>Batch</Th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {items.map((item) => (
                  <tr key={item.id} className="hover:bg-slate-50">
                    <Td className="max-w-xs truncate font-mono text-xs">
                      <Link href={`${base}/items/${item.id}`} className="text-brand-700 hover:underline" title={item.externalId}>
                        {item.externalId}
                      </Link>
                    </Td>
                    <Td>{item.kind}</Td>
                    <Td className="max-w-md truncate">
                      <div className="flex flex-wrap gap-1">
                        {tagText(item.tags).map(([key, value]) => (
                          <span key={key} className="rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-600">
                            {key}: {value}
                          </span>
                        ))}
                      </div>
                    </Td>
                    <Td>
                      <ItemRoleControl slug={slug} itemId={item.id} externalId={item.externalId} role={item.practice ? "practice" : item.gold ? "gold" : "ordinary"} answered={item._count.assignments} />
                    </Td>
                    <Td>
                      <div className="flex gap-1">
                        <ReviewBadge outcome={reviewFlags.get(item.id)?.outcome} />
                      </div>
                    </Td>
                    <Td align="right" className="tabular-nums">{item._count.assignments}</Td>
                    <Td className="max-w-[12rem] truncate text-xs text-slate-500">{item.batch.fileName}</Td>
                  </tr>
                ))}
              </tbody>
            </Table>
            {pages > 1 ? (
              <div className="flex items-center justify-between px-5 py-3 text-sm text-slate-600">
                <span>
                  Page {filter.page} of {pages}
                </span>
                <div className="flex gap-2">
                  {filter.page > 1 ? <ButtonLink size="sm" variant="secondary" href={link({ page: filter.page - 1 })}>Previous</ButtonLink> : null}
                  {filter.page < pages ? <ButtonLink size="sm" variant="secondary" href={link({ page: filter.page + 1 })}>Next</ButtonLink> : null}
                </div>
              </div>
            ) : null}
          </>
        )}
      </Card>
    </div>
  );
}

const reviewBadges = {
  EXCLUDED: { tone: "red", text: "failed review" },
  KEPT: { tone: "green", text: "reviewed" },
  CONTESTED: { tone: "violet", text: "review contested" },
  PENDING: { tone: "slate", text: "in review" },
} as const;

/** Review state: items that failed review get no new assignments; their past answers stay. */
function ReviewBadge({ outcome }: { outcome?: keyof typeof reviewBadges }) {
  if (!outcome) return null;
  const badge = reviewBadges[outcome];
  return <Badge tone={badge.tone}>{badge.text}</Badge>;
}

function FilterChip({ href, active, children }: { href: string; active: boolean; children: React.ReactNode }) {
  return (
    <Link href={href} aria-current={active ? "true" : undefined} className={`rounded-full border px-2.5 py-0.5 text-xs font-medium ${active ? "border-brand-500 bg-brand-50 text-brand-700" : "border-slate-200 bg-white text-slate-600 hover:border-slate-300"}`}>
      {children}
    </Link>
  );
}
