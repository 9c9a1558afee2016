import Link from "next/link";
import type { ExportFilter } from "@/lib/exports/filter";
import type { StudySubmissionFile } from "@/lib/exports/submission";
import type { studyFacets } from "@/lib/studies/studies";

type StudyFacets = Awaited<ReturnType<typeof studyFacets>>;
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { Table, Td, Th } from "@/components/ui/table";
import { buttonClass } from "@/components/ui/button";
import { count } from "@/components/dashboard/format";

/** The exports page's filter: one task and/or one tag value, and whether external ids are pseudonymised (a GET form: the page reads the query). */
export function ExportFilterForm({ slug, facets, filter, pseudonymise }: { slug: string; facets: StudyFacets; filter: ExportFilter; pseudonymise: boolean }) {
  const filtered = Boolean(filter.kind || filter.tag);
  return (
    <Card>
      <CardHeader
        title="Filter"
        description="Exports hold the whole study, or only the items of one task and/or one tag value (and their answers, events and counts)."
      />
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
  );
}

/** People's answers as the benchmarks' own submission files, for benchmarks that withhold their test answers. */
export function SubmissionFilesCard({ slug, submissions }: { slug: string; submissions: StudySubmissionFile[] }) {
  if (submissions.length === 0) return null;
  return (
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
              <Td align="right" className="tabular-nums">
                {count(file.items)}
              </Td>
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
  );
}
