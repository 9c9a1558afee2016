import type { Metadata } from "next";
import Link from "next/link";
import { requirePageRole } from "@/lib/auth/session";
import { countArchivedStudies, listStudiesWithCounts } from "@/lib/studies/studies";
import { PageHeader } from "@/components/ui/page-header";
import { ButtonLink } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Badge } from "@/components/ui/badge";

export const metadata: Metadata = { title: "Studies" };

const statusTone = { DRAFT: "slate", OPEN: "green", PAUSED: "amber", CLOSED: "amber" } as const;

export default async function StudiesPage({ searchParams }: { searchParams: Promise<Record<string, string | undefined>> }) {
  await requirePageRole("/research", "ADMIN", "RESEARCHER");
  const archived = (await searchParams).archived === "1";
  const [studies, archivedCount] = await Promise.all([listStudiesWithCounts({ archived }), countArchivedStudies()]);
  return (
    <>
      <PageHeader
        title={archived ? "Archived studies" : "Studies"}
        description={
          archived
            ? "Hidden from the lists and closed to participants; restore one from its Settings."
            : "Human-baseline studies: their items, annotators and results."
        }
        actions={<ButtonLink href="/research/studies/new">New study</ButtonLink>}
      />
      {archived ? (
        <p className="mb-4 text-sm">
          <Link href="/research" className="text-brand-700 hover:underline">
            ← All studies
          </Link>
        </p>
      ) : null}
      {studies.length === 0 && archived ? (
        <EmptyState title="No archived studies" />
      ) : studies.length === 0 ? (
        <EmptyState
          title="No studies yet"
          description="Create a study, then import a batch of benchmark items into it."
          action={<ButtonLink href="/research/studies/new">Create the first study</ButtonLink>}
        />
      ) : (
        <ul className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
          {studies.map((study) => (
            <li key={study.id}>
              <Link
                href={`/research/studies/${study.slug}`}
                className="block h-full rounded-lg border border-slate-200 bg-white p-5 shadow-sm transition hover:border-brand-500 hover:shadow"
              >
                <div className="flex items-start justify-between gap-2">
                  <h2 className="font-semibold text-slate-900">{study.title}</h2>
                  <Badge tone={statusTone[study.status]}>{study.status.toLowerCase()}</Badge>
                </div>
                <p className="mt-0.5 text-xs text-slate-500">
                  <span className="font-mono">{study.slug}</span> · <span data-testid="study-version">version {study.version}</span>
                </p>
                <dl className="mt-4 grid grid-cols-4 gap-2 text-center">
                  {[
                    ["items", study._count.items],
                    ["batches", study._count.batches],
                    ["annotators", study._count.members],
                    ["responses", study.responses],
                  ].map(([label, value]) => (
                    <div key={label} className="rounded-md bg-slate-50 py-2">
                      <dd className="text-lg font-semibold tabular-nums text-slate-900">{value}</dd>
                      <dt className="text-xs text-slate-500">{label}</dt>
                    </div>
                  ))}
                </dl>
                <p className="mt-3 text-xs text-slate-500">
                  {study.overlap} annotator{study.overlap === 1 ? "" : "s"} per item
                </p>
              </Link>
            </li>
          ))}
        </ul>
      )}
      {!archived && archivedCount > 0 ? (
        <p className="mt-6 text-sm">
          <Link href="/research?archived=1" className="text-slate-600 hover:text-brand-700 hover:underline" data-testid="archived-studies-link">
            Archived studies ({archivedCount})
          </Link>
        </p>
      ) : null}
    </>
  );
}
