"use client";

import { useEffect, useRef, useState, useSyncExternalStore } from "react";
import Link from "next/link";
import { Button } from "@/components/ui/button";
import { Card, CardBody } from "@/components/ui/card";
import { callApi } from "@/lib/client/api";
import { importExample } from "@/components/tasks/registry";

interface ImportError {
  file?: string;
  line?: number;
  field?: string;
  message: string;
}
type Outcome = { ok: true; message: string; status: string; itemCount?: number } | { ok: false; message: string; errors: ImportError[] };

/** GET /api/admin/import/jobs/<id> (lib/import/jobs.ts ImportJobView) */
interface JobView {
  id: string;
  fileName: string;
  status: "RUNNING" | "SUCCEEDED" | "FAILED";
  phase: string;
  done: number;
  total: number;
  outcome:
    { ok: true; result: { message: string; status: string; itemCount?: number } } | { ok: false; error: string; details?: { errors?: ImportError[] } } | null;
}

const POLL_MS = 700;

/** The headline of a failed import: the summary line alone (the API's message lists every error after it, and the list shows them). */
function headlineOf(message: string): string {
  return message.split("\n")[0].trim() || "The import failed";
}

function outcomeOfJob(job: JobView): Outcome | undefined {
  if (job.status === "RUNNING" || !job.outcome) return undefined;
  if (job.outcome.ok) return { ok: true, message: job.outcome.result.message, status: job.outcome.result.status, itemCount: job.outcome.result.itemCount };
  // the headline says when checking stopped at the error cap
  return { ok: false, message: headlineOf(job.outcome.error), errors: job.outcome.details?.errors ?? [] };
}

function progressText(job: JobView): string {
  if (job.phase === "reading") return `Reading ${job.fileName}…`;
  if (job.total > 0) return `${job.phase[0].toUpperCase()}${job.phase.slice(1)}: ${job.done.toLocaleString("en")} of ${job.total.toLocaleString("en")}…`;
  if (job.done > 0) return `${job.phase[0].toUpperCase()}${job.phase.slice(1)}: ${job.done.toLocaleString("en")}…`;
  return `${job.phase[0].toUpperCase()}${job.phase.slice(1)}…`;
}

function exampleItemLine(): string {
  const { kind, id, tags } = importExample();
  const tagText = Object.entries(tags)
    .map(([name, value]) => `${JSON.stringify(name)}: ${JSON.stringify(value)}`)
    .join(", ");
  return `{"id": ${JSON.stringify(id)}, "kind": ${JSON.stringify(kind)}, "public": {...}, "key": {...},\n "tags": {${tagText}}, "practice": false, "gold": false}`;
}

const itemLine = exampleItemLine();

/** `defaultStudy`: the study the page was opened from (`?study=<slug>`), else none: the admin picks one. */
export function ImportForm({ studies, defaultStudy }: { studies: Array<{ slug: string; title: string; version?: number }>; defaultStudy: string | null }) {
  const [study, setStudy] = useState(defaultStudy ?? "");
  const [job, setJob] = useState<JobView>();
  const [files, setFiles] = useState<File[]>([]);
  const [label, setLabel] = useState<string>();
  const [pending, setPending] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>();
  const [skipInvalid, setSkipInvalid] = useState(false);
  const [textOnly, setTextOnly] = useState(false);
  const zipInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  // files chosen before hydration would be lost: say when the inputs listen (tests wait for it)
  const ready = useSyncExternalStore(
    () => () => {},
    () => true,
    () => false,
  );

  function chooseZip(list: FileList | null) {
    if (!list?.length) return;
    setFiles([list[0]]);
    setLabel(`${list[0].name} (${(list[0].size / 1048576).toFixed(1)} MiB)`);
    setOutcome(undefined);
  }

  function chooseFolder(list: FileList | null) {
    if (!list?.length) return;
    const chosen = Array.from(list);
    setFiles(chosen);
    const top = (chosen[0].webkitRelativePath || chosen[0].name).split("/")[0];
    setLabel(`folder ${top}: ${chosen.length} files`);
    setOutcome(undefined);
  }

  // the running job: polled until it ends (the import runs on the server whether or not this page stays open)
  const runningJobId = job?.status === "RUNNING" ? job.id : null;
  useEffect(() => {
    if (!runningJobId) return;
    let stopped = false;
    let failures = 0;
    const poll = async () => {
      if (stopped) return;
      try {
        const result = await callApi<{ job: JobView }>(`/api/admin/import/jobs/${runningJobId}`, { noStore: true });
        if (!result.ok) throw new Error(String(result.status));
        const next = result.data.job;
        if (stopped) return;
        failures = 0;
        setJob(next);
        const ended = outcomeOfJob(next);
        if (ended) {
          setOutcome(ended);
          setPending(false);
          return;
        }
      } catch {
        failures += 1;
        if (failures >= 20) {
          setOutcome({
            ok: false,
            message: "Lost touch with the server while the import ran. Reload this page later and look at the study's batches: an import is all or nothing.",
            errors: [],
          });
          setPending(false);
          return;
        }
      }
      timer = setTimeout(poll, POLL_MS);
    };
    let timer = setTimeout(poll, POLL_MS);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [runningJobId]);

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    if (files.length === 0 || !study) return;
    setPending(true);
    setOutcome(undefined);
    setJob(undefined);
    const form = new FormData();
    form.set("study", study);
    form.set("background", "1");
    if (skipInvalid) form.set("skipInvalid", "1");
    if (textOnly) form.set("textOnly", "1");
    for (const file of files) form.append("files", file, file.webkitRelativePath || file.name);
    const result = await callApi<{ job?: JobView; message: string; status: string; itemCount: number }>("/api/admin/import", { form });
    if (result.ok && result.status === 202 && result.data.job) {
      setJob(result.data.job);
      return; // the poll takes it from here
    }
    if (result.ok) setOutcome({ ok: true, message: result.data.message, status: result.data.status, itemCount: result.data.itemCount });
    else if (result.unreachable) setOutcome({ ok: false, message: "The upload did not reach the server. Nothing was imported; try again.", errors: [] });
    else
      setOutcome({
        ok: false,
        message: headlineOf(result.error ?? "The import failed"),
        errors: (result.details as { errors?: ImportError[] } | undefined)?.errors ?? result.issues ?? [],
      });
    setPending(false);
  }

  return (
    <div className="space-y-6">
      <Card>
        <CardBody>
          <form onSubmit={submit} className="space-y-5" data-ready={ready ? "true" : "false"}>
            <label className="block text-sm">
              <span className="mb-1 block font-medium text-slate-700">Study</span>
              <select
                value={study}
                required
                onChange={(e) => setStudy(e.target.value)}
                className="h-10 w-full rounded-md border border-slate-300 bg-white px-3 text-sm"
                data-testid="study-select"
              >
                <option value="" disabled>
                  Choose the study to import into…
                </option>
                {studies.map((s) => (
                  <option key={s.slug} value={s.slug}>
                    {s.title}
                    {s.version ? ` · version ${s.version}` : ""} ({s.slug})
                  </option>
                ))}
              </select>
            </label>
            <div>
              <span className="mb-1 block text-sm font-medium text-slate-700">Batch</span>
              <div className="flex flex-wrap items-center gap-2 rounded-md border border-dashed border-slate-300 bg-slate-50 p-4">
                <input
                  ref={zipInput}
                  type="file"
                  accept=".zip,application/zip"
                  className="sr-only"
                  aria-label="Choose a .zip file"
                  data-testid="zip-input"
                  onChange={(e) => chooseZip(e.target.files)}
                />
                <input
                  ref={folderInput}
                  type="file"
                  multiple
                  className="sr-only"
                  aria-label="Choose a folder"
                  data-testid="folder-input"
                  onChange={(e) => chooseFolder(e.target.files)}
                  {...({ webkitdirectory: "", directory: "" } as Record<string, string>)}
                />
                <Button type="button" variant="secondary" size="sm" onClick={() => zipInput.current?.click()}>
                  Choose a .zip
                </Button>
                <Button type="button" variant="secondary" size="sm" onClick={() => folderInput.current?.click()}>
                  Choose a folder
                </Button>
                <span className="min-w-0 text-sm break-words text-slate-600 [overflow-wrap:anywhere]" data-testid="chosen-batch">
                  {label ?? "nothing chosen"}
                </span>
              </div>
            </div>
            <fieldset className="space-y-2 text-sm text-slate-700">
              <legend className="mb-1 font-medium">If the batch is not whole</legend>
              <label className="flex items-start gap-2">
                <input type="checkbox" checked={skipInvalid} onChange={(e) => setSkipInvalid(e.target.checked)} className="mt-1" data-testid="skip-invalid" />
                <span>Skip bad entries: import the good entries and list the ones skipped (a missing image or a repeated id still stops the import)</span>
              </label>
              <label className="flex items-start gap-2">
                <input type="checkbox" checked={textOnly} onChange={(e) => setTextOnly(e.target.checked)} className="mt-1" data-testid="text-only" />
                <span>Text only: import release questions without the videos or frames the batch lacks (OpenEQA, EgoSchema, Perception Test, VSI-Bench)</span>
              </label>
            </fieldset>
            <div className="flex items-center justify-between gap-4">
              <p className="text-xs text-slate-500">
                Everything is checked first; if anything is wrong nothing is imported, unless you chose above to skip bad entries or import text only.
              </p>
              <Button type="submit" disabled={pending || files.length === 0 || !study}>
                {pending ? "Importing…" : "Import"}
              </Button>
            </div>
          </form>
        </CardBody>
      </Card>

      {pending && job?.status === "RUNNING" ? (
        <div
          role="status"
          aria-live="polite"
          data-testid="import-progress"
          className="rounded-md border border-slate-200 bg-white px-4 py-3 text-sm text-slate-700"
        >
          <p className="font-medium break-words [overflow-wrap:anywhere]">{progressText(job)}</p>
          <div className="mt-2 h-2 overflow-hidden rounded bg-slate-100" aria-hidden="true">
            <div
              className="h-full bg-indigo-500 transition-all"
              style={{ width: job.total > 0 ? `${Math.min(100, Math.round((job.done / job.total) * 100))}%` : "10%" }}
            />
          </div>
          <p className="mt-1 text-xs text-slate-500">
            The import runs on the server; annotators are not kept waiting. You may leave this page: the batch appears on the study once it is in.
          </p>
        </div>
      ) : null}

      {outcome?.ok ? (
        <div role="status" data-testid="import-result" className="rounded-md border border-emerald-200 bg-emerald-50 px-4 py-3 text-sm text-emerald-800">
          <p className="font-medium break-words [overflow-wrap:anywhere]">{outcome.message}</p>
          <Link href={`/research/studies/${study}`} className="mt-1 inline-block font-medium text-emerald-900 underline">
            See the study&apos;s items
          </Link>
        </div>
      ) : null}
      {outcome && !outcome.ok ? (
        <div role="alert" data-testid="import-errors" className="rounded-md border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
          <p className="font-medium break-words [overflow-wrap:anywhere]" data-testid="import-error-headline">
            {outcome.message}
          </p>
          {outcome.errors.length > 0 ? (
            <ul className="mt-2 max-h-96 space-y-1.5 overflow-y-auto pr-1 font-mono text-xs" data-testid="import-error-list">
              {outcome.errors.map((e, i) => {
                // an issue of the zip itself names the zip: the headline already does
                const where = [
                  e.file && !(e.line === undefined && outcome.message.includes(e.file)) ? e.file : undefined,
                  e.line !== undefined ? `line ${e.line}` : undefined,
                  e.field ? `field ${e.field}` : undefined,
                ]
                  .filter(Boolean)
                  .join(", ");
                return (
                  <li key={i} className="break-words whitespace-pre-wrap [overflow-wrap:anywhere]">
                    {where ? <span className="font-semibold">{where}: </span> : null}
                    {e.message}
                  </li>
                );
              })}
            </ul>
          ) : null}
          <p className="mt-2 text-xs">Nothing was imported.</p>
        </div>
      ) : null}

      <Card>
        <CardBody className="text-sm text-slate-600">
          <h2 className="mb-2 font-semibold text-slate-800">Batch format</h2>
          <p>
            <code className="rounded bg-slate-100 px-1">items.jsonl</code>, one item a line; images by relative path (PNG, JPEG or WebP):
          </p>
          <pre className="mt-2 overflow-x-auto rounded-md bg-slate-900 p-3 text-xs text-slate-100">{itemLine}</pre>
          <p className="mt-2">
            <code className="rounded bg-slate-100 px-1">public</code> is what annotators see; <code className="rounded bg-slate-100 px-1">key</code> is the
            answer key and never reaches their browser. From the command line:{" "}
            <code className="rounded bg-slate-100 px-1 break-words">npx yardstick import &lt;folder|zip&gt; --study {study || "<slug>"}</code>
          </p>
        </CardBody>
      </Card>
    </div>
  );
}
