"use client";

import { useRef, useState, useSyncExternalStore } from "react";
import Link from "next/link";
import { Button } from "@/components/ui/button";
import { Card, CardBody } from "@/components/ui/card";

interface ImportError {
  file?: string;
  line?: number;
  field?: string;
  message: string;
}
type Outcome = { ok: true; message: string; status: string; itemCount?: number } | { ok: false; message: string; errors: ImportError[] };

const itemLine = `{"id": "fwd-001", "kind": "enact-forward", "public": {...}, "key": {...},
 "tags": {"steps": 5, "hand": "right"}, "practice": false, "gold": false}`;

export function ImportForm({ studies, defaultStudy }: { studies: Array<{ slug: string; title: string; version?: number }>; defaultStudy: string }) {
  const [study, setStudy] = useState(defaultStudy);
  const [files, setFiles] = useState<File[]>([]);
  const [label, setLabel] = useState<string>();
  const [pending, setPending] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>();
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

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    if (files.length === 0) return;
    setPending(true);
    setOutcome(undefined);
    const form = new FormData();
    form.set("study", study);
    for (const file of files) form.append("files", file, file.webkitRelativePath || file.name);
    try {
      const response = await fetch("/api/admin/import", { method: "POST", body: form });
      const body = await response.json();
      if (response.ok) setOutcome({ ok: true, message: body.message, status: body.status, itemCount: body.itemCount });
      else setOutcome({ ok: false, message: body.error ?? "The import failed", errors: body.details?.errors ?? body.issues ?? [] });
    } catch {
      setOutcome({ ok: false, message: "The upload did not reach the server. Nothing was imported; try again.", errors: [] });
    } finally {
      setPending(false);
    }
  }

  return (
    <div className="space-y-6">
      <Card>
        <CardBody>
          <form onSubmit={submit} className="space-y-5" data-ready={ready ? "true" : "false"}>
            <label className="block text-sm">
              <span className="mb-1 block font-medium text-slate-700">Study</span>
              <select value={study} onChange={(e) => setStudy(e.target.value)} className="h-10 w-full rounded-md border border-slate-300 bg-white px-3 text-sm">
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
                <input ref={zipInput} type="file" accept=".zip,application/zip" className="sr-only" aria-label="Choose a .zip file" data-testid="zip-input" onChange={(e) => chooseZip(e.target.files)} />
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
                <span className="text-sm text-slate-600" data-testid="chosen-batch">
                  {label ?? "nothing chosen"}
                </span>
              </div>
            </div>
            <div className="flex items-center justify-between gap-4">
              <p className="text-xs text-slate-500">Everything is checked first; if anything is wrong nothing is imported.</p>
              <Button type="submit" disabled={pending || files.length === 0}>
                {pending ? "Importing…" : "Import"}
              </Button>
            </div>
          </form>
        </CardBody>
      </Card>

      {outcome?.ok ? (
        <div role="status" data-testid="import-result" className="rounded-md border border-emerald-200 bg-emerald-50 px-4 py-3 text-sm text-emerald-800">
          <p className="font-medium">{outcome.message}</p>
          <Link href={`/research/studies/${study}`} className="mt-1 inline-block font-medium text-emerald-900 underline">
            See the study&apos;s items
          </Link>
        </div>
      ) : null}
      {outcome && !outcome.ok ? (
        <div role="alert" data-testid="import-errors" className="rounded-md border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
          <p className="font-medium">{outcome.message}</p>
          {outcome.errors.length > 0 ? (
            <ul className="mt-2 max-h-72 space-y-1 overflow-auto font-mono text-xs">
              {outcome.errors.map((e, i) => (
                <li key={i}>
                  {[e.file, e.line !== undefined ? `line ${e.line}` : undefined, e.field].filter(Boolean).join(", ")}
                  {e.file || e.line !== undefined || e.field ? ": " : ""}
                  {e.message}
                </li>
              ))}
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
            <code className="rounded bg-slate-100 px-1">public</code> is what annotators see; <code className="rounded bg-slate-100 px-1">key</code> is the answer key and never reaches their browser. From the command line:{" "}
            <code className="rounded bg-slate-100 px-1">npx yardstick import &lt;folder|zip&gt; --study {study}</code>
          </p>
        </CardBody>
      </Card>
    </div>
  );
}
