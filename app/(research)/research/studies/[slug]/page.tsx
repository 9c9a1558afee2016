import type { Metadata } from "next";
import Link from "next/link";
import { requirePageRole } from "@/lib/auth/session";
import { getStudyBySlug, listAdminContacts, listStudyBatches, listStudyItems, studyFacets } from "@/lib/studies/studies";
import { itemFilterSchema } from "@/lib/validations/study";
import { EmptyState } from "@/components/ui/empty-state";
import { ButtonLink } from "@/components/ui/button";
import { reviewFlagsForStudy } from "@/lib/review/exclusion";
import { mayManageStudy } from "@/lib/studies/managers";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { StudyNextStep } from "@/components/research/study-next-step";
import { ItemFilterChips, StudyBatchesCard, StudyItemsTable } from "@/components/research/study-overview-sections";

export const metadata: Metadata = { title: "Study" };

export default async function StudyOverviewPage({
  params,
  searchParams,
}: {
  params: Promise<{ slug: string }>;
  searchParams: Promise<Record<string, string | undefined>>;
}) {
  const { slug } = await params;
  const user = await requirePageRole(`/research/studies/${slug}`, "ADMIN", "RESEARCHER");
  const study = await getStudyBySlug(slug);
  const parsed = itemFilterSchema.safeParse(await searchParams);
  const filter = parsed.success ? parsed.data : { page: 1 };
  const [batches, facets, { items, total, pageSize }, reviewFlags] = await Promise.all([
    listStudyBatches(study.id),
    studyFacets(study.id),
    listStudyItems(study.id, filter),
    reviewFlagsForStudy(study.id),
  ]);
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const itemCount = facets.kinds.reduce((sum, k) => sum + k.count, 0);
  // an empty study: the next step the viewer's role can take (a researcher asks an admin)
  // admins import on the admin page; the study's owner on the study's own import page (lib/studies/managers.ts)
  const importHref =
    user.role === "ADMIN"
      ? `/admin/import?study=${encodeURIComponent(slug)}`
      : (await mayManageStudy(slug, user))
        ? `/research/studies/${encodeURIComponent(slug)}/import`
        : null;
  const admins = itemCount === 0 && importHref === null ? await listAdminContacts() : [];
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
      {itemCount === 0 ? (
        <StudyNextStep slug={slug} title={study.title} role={user.role === "ADMIN" ? "ADMIN" : "RESEARCHER"} admins={admins} importHref={importHref} />
      ) : null}
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

      <StudyBatchesCard slug={slug} batches={batches} importHref={importHref} />

      <Card>
        <CardHeader title="Items" description={`${total} item${total === 1 ? "" : "s"}${filter.kind || filter.tag ? " match the filter" : ""}`} />
        <ItemFilterChips facets={facets} filter={filter} link={link} />
        {items.length === 0 ? (
          <CardBody>
            <EmptyState
              title={total === 0 && !filter.kind && !filter.tag ? "No items yet" : "No items match"}
              description={
                filter.kind || filter.tag ? (
                  <Link className="text-brand-600 underline" href={base}>
                    Clear the filters
                  </Link>
                ) : user.role === "ADMIN" ? (
                  "Import a batch to add items."
                ) : (
                  "An admin imports item batches: see the next step above."
                )
              }
            />
          </CardBody>
        ) : (
          <>
            <StudyItemsTable slug={slug} items={items} reviewFlags={reviewFlags} />
            {pages > 1 ? (
              <div className="flex items-center justify-between px-5 py-3 text-sm text-slate-600">
                <span>
                  Page {filter.page} of {pages}
                </span>
                <div className="flex gap-2">
                  {filter.page > 1 ? (
                    <ButtonLink size="sm" variant="secondary" href={link({ page: filter.page - 1 })}>
                      Previous
                    </ButtonLink>
                  ) : null}
                  {filter.page < pages ? (
                    <ButtonLink size="sm" variant="secondary" href={link({ page: filter.page + 1 })}>
                      Next
                    </ButtonLink>
                  ) : null}
                </div>
              </div>
            ) : null}
          </>
        )}
      </Card>
    </div>
  );
}
