import Link from "next/link";
import type { listStudyBatches, listStudyItems } from "@/lib/studies/studies";
import type { reviewFlagsForStudy } from "@/lib/review/exclusion";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { Table, Td, Th } from "@/components/ui/table";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { ButtonLink } from "@/components/ui/button";
import { ItemRoleControl } from "@/components/research/item-role-control";

/** Parts of a study's overview page (app/(research)/research/studies/[slug]): its batches, its items table and their filter chips. */

type StudyBatches = Awaited<ReturnType<typeof listStudyBatches>>;
type StudyItems = Awaited<ReturnType<typeof listStudyItems>>["items"];
type ReviewFlags = Awaited<ReturnType<typeof reviewFlagsForStudy>>;

function tagText(tags: unknown): Array<[string, string]> {
  if (!tags || typeof tags !== "object") return [];
  return Object.entries(tags as Record<string, unknown>).map(([key, value]) => [key, String(value)]);
}

/** `importHref`: where the viewer imports into this study (admins and the study's owner), null: they may not. */
export function StudyBatchesCard({ batches, importHref }: { slug: string; batches: StudyBatches; importHref: string | null }) {
  return (
    <Card>
      <CardHeader
        title="Batches"
        description="Each import is one batch; importing the same batch again changes nothing."
        actions={
          importHref !== null ? (
            <ButtonLink href={importHref} size="sm">
              Import a batch
            </ButtonLink>
          ) : null
        }
      />
      {batches.length === 0 ? (
        <CardBody>
          <EmptyState
            title="No batches yet"
            description={
              importHref !== null
                ? "Import items.jsonl with its images, as a folder or a .zip."
                : "An admin or the study's owner imports item batches into this study."
            }
          />
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
                <Td align="right" className="tabular-nums">
                  {batch.itemCount}
                </Td>
                <Td>{batch.importedBy?.name ?? "command line"}</Td>
                <Td>{batch.createdAt.toISOString().slice(0, 16).replace("T", " ")}</Td>
                <Td className="font-mono text-xs text-slate-500">{batch.checksum.slice(0, 12)}</Td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </Card>
  );
}

export function StudyItemsTable({ slug, items, reviewFlags }: { slug: string; items: StudyItems; reviewFlags: ReviewFlags }) {
  const base = `/research/studies/${slug}`;
  return (
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
              <ItemRoleControl
                slug={slug}
                itemId={item.id}
                externalId={item.externalId}
                role={item.practice ? "practice" : item.gold ? "gold" : "ordinary"}
                answered={item._count.assignments}
              />
            </Td>
            <Td>
              <div className="flex gap-1">
                <ReviewBadge outcome={reviewFlags.get(item.id)?.outcome} />
              </div>
            </Td>
            <Td align="right" className="tabular-nums">
              {item._count.assignments}
            </Td>
            <Td className="max-w-[12rem] truncate text-xs text-slate-500">{item.batch.fileName}</Td>
          </tr>
        ))}
      </tbody>
    </Table>
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

export function FilterChip({ href, active, children }: { href: string; active: boolean; children: React.ReactNode }) {
  return (
    <Link
      href={href}
      aria-current={active ? "true" : undefined}
      className={`rounded-full border px-2.5 py-0.5 text-xs font-medium ${active ? "border-brand-500 bg-brand-50 text-brand-700" : "border-slate-200 bg-white text-slate-600 hover:border-slate-300"}`}
    >
      {children}
    </Link>
  );
}

/** The items' filter: a chip per task kind and per tag value (the first 24 of each tag), each a link that sets or clears it. */
export function ItemFilterChips({
  facets,
  filter,
  link,
}: {
  facets: { kinds: Array<{ kind: string; count: number }>; tags: Array<{ key: string; values: Array<{ value: string; count: number }> }> };
  filter: { kind?: string; tag?: string };
  link: (next: Partial<{ kind: string; tag: string; page: number }>) => string;
}) {
  return (
    <>
      <div className="flex flex-wrap items-center gap-2 border-b border-slate-100 px-5 py-3 text-sm" aria-label="Filters">
        <span className="text-slate-500">Kind:</span>
        <FilterChip href={link({ kind: undefined })} active={!filter.kind}>
          all
        </FilterChip>
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
    </>
  );
}
