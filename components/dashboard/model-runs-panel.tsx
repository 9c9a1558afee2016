"use client";

import { ScrollBox } from "@/components/ui/scroll-box";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { callApi } from "@/lib/client/api";

interface RunRow {
  id: string;
  name: string;
  createdAt: string;
  predictions: number;
  unparsed: number;
  importedBy: string | null;
}

interface ImportError {
  file?: string;
  line?: number;
  /** "line 3", "entry 12 (line 80)" */
  place?: string;
  field?: string;
  message: string;
}

/**
 * Model runs of a study: the list (with delete) and the import form (name + answers.jsonl or a
 * benchmark's own output file). An import is all or nothing; its errors name the place; outputs the
 * benchmark's parser reads no answer from are scored wrong and shown as "N unparsed" with the run.
 * Importing a name again replaces that run.
 */
export function ModelRunsPanel({ slug, runs }: { slug: string; runs: RunRow[] }) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<{ text: string; lines: ImportError[] } | null>(null);
  const [, startTransition] = useTransition();

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    setBusy(true);
    setMessage(null);
    setError(null);
    const result = await callApi<{ message: string }>(`/api/studies/${slug}/model-runs`, { form: new FormData(form) });
    if (result.ok) {
      setMessage(result.data.message);
      form.reset();
      startTransition(() => router.refresh());
    } else if (result.unreachable) {
      setError({ text: "The server did not answer; try again.", lines: [] });
    } else {
      const lines: ImportError[] =
        (result.details as { errors?: ImportError[] } | undefined)?.errors ?? result.issues?.map((i) => ({ field: i.path, message: i.message })) ?? [];
      setError({ text: result.error ?? "The import failed", lines });
    }
    setBusy(false);
  }

  async function remove(run: RunRow) {
    if (!window.confirm(`Delete the model run "${run.name}" and its ${run.predictions} predictions?`)) return;
    const result = await callApi(`/api/studies/${slug}/model-runs/${run.id}`, { method: "DELETE" });
    if (result.ok) startTransition(() => router.refresh());
    else setError({ text: result.error ?? "Could not delete the run", lines: [] });
  }

  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_24rem]">
      <div className="min-w-0">
        {runs.length === 0 ? (
          <p className="text-sm text-slate-500">
            No model runs yet. Import a model&apos;s answers to see it beside the humans in the accuracy table and charts.
          </p>
        ) : (
          <ScrollBox label="Model runs">
            <table className="min-w-full divide-y divide-slate-200 text-sm" data-testid="model-runs">
              <thead>
                <tr className="text-left text-xs font-semibold uppercase tracking-wide text-slate-500">
                  <th className="px-2 py-1.5">Model</th>
                  <th className="px-2 py-1.5 text-right">Predictions</th>
                  <th className="px-2 py-1.5">Imported</th>
                  <th className="px-2 py-1.5" />
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {runs.map((run) => (
                  <tr key={run.id}>
                    <td className="px-2 py-1.5 font-medium text-slate-800">{run.name}</td>
                    <td className="px-2 py-1.5 text-right tabular-nums">
                      {run.predictions.toLocaleString("en-US")}
                      {run.unparsed > 0 ? (
                        <span className="block text-xs text-amber-700" title="outputs the benchmark's parser read no answer from, scored wrong">
                          {run.unparsed.toLocaleString("en-US")} unparsed
                        </span>
                      ) : null}
                    </td>
                    <td className="px-2 py-1.5 text-slate-500">
                      {run.createdAt.slice(0, 16).replace("T", " ")}
                      {run.importedBy ? ` by ${run.importedBy}` : " (command line)"}
                    </td>
                    <td className="px-2 py-1.5 text-right">
                      <button type="button" onClick={() => remove(run)} className="text-xs text-red-700 hover:underline">
                        Delete
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollBox>
        )}
      </div>
      <form onSubmit={submit} className="space-y-3 rounded-md border border-slate-200 bg-slate-50 p-4" aria-label="Import a model run">
        <h3 className="text-sm font-semibold text-slate-800">Import a model run</h3>
        <label className="block text-xs font-medium text-slate-600">
          Model name
          <input
            name="name"
            required
            maxLength={120}
            placeholder="GPT-5"
            className="mt-1 h-9 w-full rounded-md border border-slate-300 bg-white px-2 text-sm"
          />
        </label>
        <label className="block text-xs font-medium text-slate-600">
          Model outputs
          <input name="file" type="file" accept=".jsonl,.json,.txt,application/x-ndjson" required className="mt-1 block w-full text-sm" />
        </label>
        <p className="text-xs text-slate-500">
          One <code>{'{"id": "<item id>", "answer": ...}'}</code> a line (the model&apos;s raw text or an answer object), or the benchmark&apos;s own output
          file: OpenEQA&apos;s results list, EgoSchema&apos;s {"{q_uid: 0-4}"}, BLINK&apos;s {'{idx: "(D)"}'} or outputs, Perception Test&apos;s per-video
          lists, VSI-Bench rows with their prediction. Answers the benchmark&apos;s parser cannot read are scored wrong and counted as unparsed. Same name again
          replaces the run. Command line: <code>npx yardstick import-run answers.jsonl --study {slug} --name &quot;GPT-5&quot;</code>
        </p>
        <Button type="submit" size="sm" disabled={busy}>
          {busy ? "Importing…" : "Import and score"}
        </Button>
        {message ? (
          <pre role="status" className="whitespace-pre-wrap rounded-md bg-emerald-50 px-3 py-2 text-xs text-emerald-900">
            {message}
          </pre>
        ) : null}
        {error ? (
          <div role="alert" className="rounded-md bg-red-50 px-3 py-2 text-xs text-red-800">
            <p className="whitespace-pre-wrap font-medium">{error.text.split("\n")[0]}</p>
            {error.lines.length > 0 ? (
              <ul className="mt-1 max-h-40 list-disc overflow-y-auto pl-4">
                {error.lines.map((e, i) => (
                  <li key={i}>
                    {e.place ?? (e.line !== undefined ? `line ${e.line}` : "")}
                    {e.field ? ` (${e.field})` : ""}: {e.message}
                  </li>
                ))}
              </ul>
            ) : null}
          </div>
        ) : null}
      </form>
    </div>
  );
}
