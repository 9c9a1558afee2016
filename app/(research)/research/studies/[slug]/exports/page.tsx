import type { Metadata } from "next";
import { requirePageRole } from "@/lib/auth/session";
import { getStudyBySlug, studyFacets } from "@/lib/studies/studies";
import { exportTableCounts } from "@/lib/exports/counts";
import { exportQuerySchema, type ExportWhat } from "@/lib/exports/filter";
import { exportRetentionDays, listExportJobs } from "@/lib/exports/export-jobs";
import { studySubmissionFiles } from "@/lib/exports/submission";
import { Card, CardHeader } from "@/components/ui/card";
import { Table, Td, Th } from "@/components/ui/table";
import { buttonClass } from "@/components/ui/button";
import { count } from "@/components/dashboard/format";
import { ExportJobsPanel } from "@/components/research/export-jobs-panel";
import { ExportFilterForm, SubmissionFilesCard } from "@/components/research/export-sections";

export const metadata: Metadata = { title: "Exports" };

const tables: Array<{ what: ExportWhat; title: string; description: string }> = [
  { what: "items", title: "Items", description: "Every item with its tags, public part and answer key (researchers only)." },
  {
    what: "responses",
    title: "Responses",
    description: "Every answer with its scores, confidence (raw and 0-1), active and wall time; practice answers marked.",
  },
  { what: "events", title: "Events", description: "Trajectories: every interaction event in order (seq) per assignment, with client and server time." },
  {
    what: "annotators",
    title: "Annotators",
    description:
      "Pseudonymous id, name, counts, participant status and consent per annotator, with the recruitment platform's id (as stored, or pseudonymised); no emails.",
  },
  { what: "predictions", title: "Model predictions", description: "Imported model runs: each prediction with its scores." },
];

export default async function ExportsPage({
  params,
  searchParams,
}: {
  params: Promise<{ slug: string }>;
  searchParams: Promise<Record<string, string | undefined>>;
}) {
  const { slug } = await params;
  await requirePageRole(`/research/studies/${slug}/exports`, "ADMIN", "RESEARCHER");
  const study = await getStudyBySlug(slug);
  const parsed = exportQuerySchema.safeParse(await searchParams);
  const filter = parsed.success ? { kind: parsed.data.kind, tag: parsed.data.tag } : {};
  const pseudonymise = parsed.success && parsed.data.externalIds === "pseudonymised";
  const [facets, counts, jobs, submissions] = await Promise.all([
    studyFacets(study.id),
    exportTableCounts(study.id, filter),
    listExportJobs(slug),
    studySubmissionFiles(study.id),
  ]);
  const link = (what: ExportWhat, format: "csv" | "jsonl") => {
    const query = new URLSearchParams({ format });
    if (filter.kind) query.set("kind", filter.kind);
    if (filter.tag) query.set("tag", filter.tag);
    if (pseudonymise) query.set("externalIds", "pseudonymised");
    return `/api/studies/${slug}/export/${what}?${query.toString()}`;
  };
  const filtered = Boolean(filter.kind || filter.tag);

  return (
    <div className="space-y-6">
      <ExportFilterForm slug={slug} facets={facets} filter={filter} pseudonymise={pseudonymise} />

      <Card>
        <CardHeader
          title={filtered ? `Downloads for ${[filter.kind, filter.tag].filter(Boolean).join(", ")}` : "Downloads"}
          description={
            <>
              Streamed as they are read (any size; for large responses and events tables you may rather prepare the file in the background, below). Columns are
              documented in <code>docs/exports.md</code>. Annotators appear under a pseudonymous id (stable within this study)
              {pseudonymise
                ? "; external ids as sha256(study salt + id), first 16 hex digits"
                : "; external ids as stored (tick the box above to pseudonymise them)"}
              . Every download is recorded in the audit log.
            </>
          }
        />
        <Table>
          <thead>
            <tr>
              <Th>Table</Th>
              <Th className="hidden sm:table-cell">What it holds</Th>
              <Th align="right">Rows</Th>
              <Th align="right">Download</Th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100" data-testid="exports">
            {tables.map((t) => (
              <tr key={t.what}>
                <Td className="font-medium">
                  {t.title}
                  <span className="mt-0.5 block max-w-56 whitespace-normal text-xs font-normal text-slate-500 sm:hidden">{t.description}</span>
                </Td>
                <Td className="hidden whitespace-normal text-slate-600 sm:table-cell">{t.description}</Td>
                <Td align="right" className="tabular-nums">
                  {count(counts[t.what])}
                </Td>
                <Td align="right">
                  <div className="flex justify-end gap-2">
                    <a href={link(t.what, "csv")} className={buttonClass("secondary", "sm")} download>
                      CSV
                    </a>
                    <a href={link(t.what, "jsonl")} className={buttonClass("secondary", "sm")} download>
                      JSONL
                    </a>
                  </div>
                </Td>
              </tr>
            ))}
          </tbody>
        </Table>
      </Card>

      <SubmissionFilesCard slug={slug} submissions={submissions} />

      <ExportJobsPanel slug={slug} filter={filter} pseudonymise={pseudonymise} initialJobs={jobs} retentionDays={exportRetentionDays()} />
    </div>
  );
}
