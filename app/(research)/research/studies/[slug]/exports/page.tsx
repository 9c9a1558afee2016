import type { Metadata } from "next";
import Link from "next/link";
import { requirePageRole } from "@/lib/auth/session";
import { getStudyBySlug, studyFacets } from "@/lib/studies/studies";
import { exportTableCounts } from "@/lib/exports/counts";
import { exportQuerySchema, type ExportWhat } from "@/lib/exports/filter";
import { exportRetentionDays, listExportJobs } from "@/lib/exports/export-jobs";
import { studySubmissionFiles } from "@/lib/exports/submission";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { Table, Td, Th } from "@/components/ui/table";
import { buttonClass } from "@/components/ui/button";
import { count } from "@/components/dashboard/format";
import { ExportJobsPanel } from "@/components/research/export-jobs-panel";

export const metadata: Metadata = { title: "Exports" };

const tables: Array<{ what: ExportWhat; title: string; description: string }> = [
  { what: "items", title: "Items", description: "Every item with its tags, public part and answer key (researchers only)." },
  { what: "responses", title: "Responses", description: "Every answer with its scores, confidence (raw and 0-1), active and wall time; practice answers marked." },
  { what: "events", title: "Events", description: "Trajectories: every interaction event in order (seq) per assignment, with client and server time." },
  { what: "annotators", title: "Annotators", description: "Pseudonymous id, name, counts, participant status and consent per annotator, with the recruitment platform's id (as stored, or pseudonymised); no emails." },
  { what: "predictions", title: "Model predictions", description: "Imported model runs: each prediction with its scores." },
];

export default async function ExportsPage({ params, searchParams }: { params: Promise<{ slug: string }>; searchParams: Promise<Record<string, string | undefined>> }) {
  const { slug } = await params;
  await requirePageRole(`/research/studies/${slug}/exports`, "ADMIN", "RESEARCHER");
  const study = await getStudyBySlug(slug);
  const parsed = exportQuerySchema.safeParse(await searchParams);
  const filter = parsed.success ? { kind: parsed.data.kind, tag: parsed.data.tag } : {};
  const pseudonymise = parsed.success && parsed.data.externalIds === "pseudonymised";
  const [facets, counts, jobs, submissions] = await Promise.all([studyFacets(study.id), exportTableCounts(study.id, filter), listExportJobs(slug), studySubmissionFiles(study.id)]);
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
      <Card>
        <CardHeader title="Filter" description="Exports hold the whole study, or only the items of one task and/or one tag value (and their answers, events and counts)." />
        <CardBody>
          <form method="get" className="flex flex-wrap items-end gap-3">
            <label className="flex flex-col gap-1 text-xs font-medium text-slate-600">
              Task
              <select name="kind" defaultValue={filter.kind ?? ""} className="h-9 rounded-md border border-slate-300 bg-white px-2 text-sm">
                <option value="">All tasks</option>
                {facets.kinds.map((k) => (
                  <option key={k.kind} value={k.kind}>
                    {k.kind} ({count(k.count)})
                  </option>
                ))}
              </select>
            </label>
            <label className="flex flex-col gap-1 text-xs font-medium text-slate-600">
              Tag
              <select name="tag" defaultValue={filter.tag ?? ""} className="h-9 rounded-md border border-slate-300 bg-white px-2 text-sm">
                <option value="">Any tag</option>
                {facets.tags.map((t) => (
                  <optgroup key={t.key} label={t.key}>
                    {t.values.map((v) => (
                      <option key={v.value} value={`${t.key}=${v.value}`}>
                        {t.key} = {v.value} ({count(v.count)})
                      </option>
                    ))}
                  </optgroup>
                ))}
              </select>
            </label>
            <label className="flex h-9 items-center gap-2 text-sm text-slate-700">
              <input type="checkbox" name="externalIds" value="pseudonymised" defaultChecked={pseudonymise} />
              Pseudonymise external ids (Prolific ids and the like)
            </label>
            <button type="submit" className={buttonClass("secondary", "md")}>
              Apply
            </button>
            {filtered || pseudonymise ? (
              <Link href={`/research/studies/${slug}/exports`} className="pb-2 text-sm text-brand-700 hover:underline">
                Clear
              </Link>
            ) : null}
          </form>
        </CardBody>
      </Card>

      <Card>
        <CardHeader
          title={filtered ? `Downloads for ${[filter.kind, filter.tag].filter(Boolean).join(", ")}` : "Downloads"}
          description={
            <>
              Streamed as they are read (any size; for large responses and events tables you may rather prepare the file in the background, below). Columns are documented in <code>docs/exports.md</code>. Annotators appear under a pseudonymous id (stable within this study)
              {pseudonymise ? "; external ids as sha256(study salt + id), first 16 hex digits" : "; external ids as stored (tick the box above to pseudonymise them)"}. Every download is recorded in the audit log.
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
                <Td align="right" className="tabular-nums">{count(counts[t.what])}</Td>
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

      {submissions.length > 0 ? (
        <Card>
          <CardHeader
            title="Benchmark submission files"
            description="People's answers in the benchmark's own submission format, for benchmarks that withhold their test answers (send the file to the benchmark's evaluation server). The majority answer per item; one annotator's through the API (?who=<annotator id>)."
          />
          <Table>
            <thead>
              <tr>
                <Th>Benchmark</Th>
                <Th className="hidden sm:table-cell">File</Th>
                <Th align="right">Items</Th>
                <Th align="right">Download</Th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100" data-testid="submission-files">
              {submissions.map((file) => (
                <tr key={file.id}>
                  <Td className="font-medium">{file.benchmark}</Td>
                  <Td className="hidden font-mono text-xs sm:table-cell">{file.fileName}</Td>
                  <Td align="right" className="tabular-nums">{count(file.items)}</Td>
                  <Td align="right">
                    <a href={`/api/studies/${slug}/submission/${file.id}?who=majority`} className={buttonClass("secondary", "sm")} download>
                      JSON
                    </a>
                  </Td>
                </tr>
              ))}
            </tbody>
          </Table>
        </Card>
      ) : null}

      <ExportJobsPanel slug={slug} filter={filter} pseudonymise={pseudonymise} initialJobs={jobs} retentionDays={exportRetentionDays()} />
    </div>
  );
}
