"use client";

import { useEffect, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { Table, Td, Th } from "@/components/ui/table";
import { count } from "@/components/dashboard/format";
import { callApi } from "@/lib/client/api";
import { EXPORT_KINDS, type ExportFormat, type ExportWhat } from "@/lib/exports/filter";
import type { ExportJobStatus, ExportJobView } from "@/lib/exports/job-view";

const POLL_MS = 2_000;

const tone: Record<ExportJobStatus, "slate" | "blue" | "green" | "red"> = {
  QUEUED: "slate",
  RUNNING: "blue",
  SUCCEEDED: "green",
  FAILED: "red",
  EXPIRED: "slate",
};
const label: Record<ExportJobStatus, string> = { QUEUED: "queued", RUNNING: "preparing", SUCCEEDED: "ready", FAILED: "failed", EXPIRED: "expired" };

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GiB`;
}

function when(iso: string | null): string {
  return iso ? iso.slice(0, 16).replace("T", " ") : "–";
}

/**
 * The Exports tab's exports prepared in the background (docs/exports.md): start one for a table
 * with the page's filter, and the study's prepared files with their status, progress and
 * download link, polled while any is queued or running.
 */
export function ExportJobsPanel({
  slug,
  filter,
  pseudonymise,
  initialJobs,
  retentionDays,
}: {
  slug: string;
  filter: { kind?: string; tag?: string };
  pseudonymise: boolean;
  initialJobs: ExportJobView[];
  retentionDays: number;
}) {
  const [jobs, setJobs] = useState(initialJobs);
  const [table, setTable] = useState<ExportWhat>("responses");
  const [format, setFormat] = useState<ExportFormat>("csv");
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string>();

  const busy = jobs.some((job) => job.status === "QUEUED" || job.status === "RUNNING");
  useEffect(() => {
    if (!busy) return;
    let stopped = false;
    const poll = async () => {
      const result = await callApi<{ jobs: ExportJobView[] }>(`/api/studies/${slug}/export-jobs`, { noStore: true });
      if (stopped) return;
      if (result.ok) setJobs(result.data.jobs);
      timer = setTimeout(poll, POLL_MS);
    };
    let timer = setTimeout(poll, POLL_MS);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [busy, slug]);

  async function prepare(event: React.FormEvent) {
    event.preventDefault();
    setPending(true);
    setError(undefined);
    const result = await callApi<{ job: ExportJobView }>(`/api/studies/${slug}/export-jobs`, {
      json: { table, format, kind: filter.kind, tag: filter.tag, externalIds: pseudonymise ? "pseudonymised" : undefined },
    });
    setPending(false);
    if (!result.ok) return setError(result.error ?? "Could not start the export");
    setJobs((list) => [result.data.job, ...list]);
  }

  return (
    <Card>
      <CardHeader
        title="Prepared in the background"
        description={`For large studies: a worker writes the file while you do something else, and keeps it ${retentionDays} days. It holds the same bytes as the direct download, with the filter and options above. Starting it and every download are recorded in the audit log.`}
      />
      <CardBody>
        <form onSubmit={prepare} className="flex flex-wrap items-end gap-3" data-testid="prepare-export">
          <label className="flex flex-col gap-1 text-xs font-medium text-slate-600">
            Table
            <select
              value={table}
              onChange={(e) => setTable(e.target.value as ExportWhat)}
              className="h-9 rounded-md border border-slate-300 bg-white px-2 text-sm"
            >
              {EXPORT_KINDS.map((what) => (
                <option key={what} value={what}>
                  {what}
                </option>
              ))}
            </select>
          </label>
          <label className="flex flex-col gap-1 text-xs font-medium text-slate-600">
            Format
            <select
              value={format}
              onChange={(e) => setFormat(e.target.value as ExportFormat)}
              className="h-9 rounded-md border border-slate-300 bg-white px-2 text-sm"
            >
              <option value="csv">CSV</option>
              <option value="jsonl">JSONL</option>
            </select>
          </label>
          <Button type="submit" variant="secondary" disabled={pending}>
            {pending ? "Starting…" : "Prepare in the background"}
          </Button>
        </form>
        {error ? (
          <p role="alert" className="mt-3 rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
            {error}
          </p>
        ) : null}
      </CardBody>
      {jobs.length > 0 ? (
        <div className="overflow-x-auto">
          <Table>
            <thead>
              <tr>
                <Th>File</Th>
                <Th>Status</Th>
                <Th align="right">Rows</Th>
                <Th align="right">Size</Th>
                <Th>Asked</Th>
                <Th>Kept until</Th>
                <Th align="right">Download</Th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100" data-testid="export-jobs">
              {jobs.map((job) => (
                <tr key={job.id}>
                  <Td className="font-mono text-xs">
                    {job.fileName}
                    {job.externalIds === "pseudonymised" ? <span className="ml-1 font-sans text-slate-500">(external ids pseudonymised)</span> : null}
                  </Td>
                  <Td>
                    <Badge tone={tone[job.status]}>{label[job.status]}</Badge>
                    {job.status === "RUNNING" && job.progress !== null ? (
                      <span className="ml-2 tabular-nums text-xs text-slate-600">{Math.floor(job.progress * 100)}%</span>
                    ) : null}
                    {job.status === "FAILED" && job.error ? <p className="mt-1 whitespace-normal text-xs text-red-700">{job.error}</p> : null}
                  </Td>
                  <Td align="right" className="tabular-nums">
                    {job.status === "RUNNING" ? `${count(job.rows)} of ${count(job.totalRows)}` : count(job.rows)}
                  </Td>
                  <Td align="right" className="tabular-nums">
                    {job.bytes > 0 || job.status === "SUCCEEDED" ? size(job.bytes) : "–"}
                  </Td>
                  <Td className="whitespace-nowrap text-xs">
                    {when(job.createdAt)}
                    {job.createdBy ? <span className="text-slate-500"> · {job.createdBy}</span> : null}
                  </Td>
                  <Td className="whitespace-nowrap text-xs">{job.status === "SUCCEEDED" || job.status === "EXPIRED" ? when(job.expiresAt) : "–"}</Td>
                  <Td align="right">
                    {job.downloadUrl ? (
                      <a href={job.downloadUrl} className="text-sm text-brand-700 hover:underline" download>
                        Download
                      </a>
                    ) : null}
                  </Td>
                </tr>
              ))}
            </tbody>
          </Table>
        </div>
      ) : null}
    </Card>
  );
}
