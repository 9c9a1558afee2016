"use client";

import { useMemo, useState } from "react";
import { useRouter } from "next/navigation";
import { Button } from "@/components/ui/button";
import { DEFAULT_REVIEW_AXES, DEFAULT_REVIEWERS_PER_ITEM } from "@/lib/validations/review";
import { keepRuleLabels, tieRuleLabels, type KeepRule, type TieRule } from "@/lib/review/rules";
import { Field, inputClass } from "@/components/ui/field";
import { callApi } from "@/lib/client/api";

export interface BatchOption {
  id: string;
  fileName: string;
  itemCount: number;
  createdAt: string;
  study: { slug: string; title: string };
  reviews: number;
  kinds: Array<{ kind: string; count: number }>;
}

export interface ReviewerOption {
  id: string;
  name: string;
  role: "ADMIN" | "RESEARCHER" | "ANNOTATOR";
  studies: string[];
}


function slugify(title: string): string {
  return title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60);
}

/** Creating a review study (docs/review.md): batches of existing studies, axes, reviewers, the rules. */
export function ReviewCreateForm({ batches, reviewers }: { batches: BatchOption[]; reviewers: ReviewerOption[] }) {
  const router = useRouter();
  const [title, setTitle] = useState("");
  const [slug, setSlug] = useState("");
  const [slugTouched, setSlugTouched] = useState(false);
  const [instructions, setInstructions] = useState("");
  const [batchIds, setBatchIds] = useState<string[]>([]);
  const [axes, setAxes] = useState<Array<{ key: string; label: string; description: string }>>(DEFAULT_REVIEW_AXES.map((axis) => ({ ...axis })));
  const [perItem, setPerItem] = useState(String(DEFAULT_REVIEWERS_PER_ITEM));
  const [keepRule, setKeepRule] = useState<KeepRule>("MAJORITY_ALL_AXES");
  const [tieRule, setTieRule] = useState<TieRule>("CONTESTED");
  const [reviewerIds, setReviewerIds] = useState<string[]>([]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [pending, setPending] = useState(false);

  // studies of the picked batches: their members would see the keys of items they annotate
  const pickedStudies = useMemo(() => new Set(batches.filter((b) => batchIds.includes(b.id)).map((b) => b.study.slug)), [batches, batchIds]);
  const items = batches.filter((b) => batchIds.includes(b.id)).reduce((sum, b) => sum + b.itemCount, 0);
  const toggle = (list: string[], id: string) => (list.includes(id) ? list.filter((x) => x !== id) : [...list, id]);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setPending(true);
    setErrors({});
    const result = await callApi<{ slug: string }>("/api/review/studies", { json: { title, slug, instructions, batchIds, axes, reviewersPerItem: perItem, keepRule, tieRule, reviewerIds } });
    if (!result.ok) {
      setPending(false);
      const next: Record<string, string> = {};
      for (const issue of result.issues ?? []) next[issue.path.split(".")[0]] ??= issue.message;
      if (!result.issues) next[(result.details as { path?: string } | undefined)?.path ?? "form"] = result.error ?? "Could not create the review study";
      setErrors(next);
      return;
    }
    router.push(`/review/${result.data.slug}/results`);
    router.refresh();
  }

  return (
    <form onSubmit={onSubmit} className="space-y-6" aria-label="New review study">
      <div className="grid gap-4 md:grid-cols-2">
        <Field label="Title" error={errors.title}>
          <input
            name="title"
            required
            value={title}
            onChange={(e) => {
              setTitle(e.target.value);
              if (!slugTouched) setSlug(slugify(e.target.value));
            }}
            className={inputClass}
            placeholder="ENACT pilot batch: item check"
          />
        </Field>
        <Field label="Slug" hint="Reviewers work at /review/<slug>" error={errors.slug}>
          <input
            name="slug"
            required
            value={slug}
            onChange={(e) => {
              setSlug(e.target.value);
              setSlugTouched(true);
            }}
            className={`${inputClass} font-mono`}
          />
        </Field>
      </div>
      <Field label="Instructions for reviewers" hint="Markdown; shown under “Guide” on the reviewer’s page (optional)" error={errors.instructions}>
        <textarea name="instructions" rows={3} value={instructions} onChange={(e) => setInstructions(e.target.value)} className="w-full rounded-md border border-slate-300 px-3 py-2 text-sm outline-none focus:border-brand-500 focus:ring-2 focus:ring-brand-100" />
      </Field>

      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-slate-800">Batches to review</legend>
        <p className="text-xs text-slate-500">Items with the same id and content in several batches or studies are reviewed once; the outcome applies to every study that holds them.</p>
        {errors.batchIds ? <p className="text-sm text-red-700">{errors.batchIds}</p> : null}
        {batches.length === 0 ? (
          <p className="rounded-md border border-dashed border-slate-300 p-4 text-sm text-slate-500">No batches yet: an admin imports batches into a study first.</p>
        ) : (
          <div className="max-h-64 overflow-y-auto rounded-md border border-slate-200">
            <table className="min-w-full divide-y divide-slate-100 text-sm">
              <thead className="sticky top-0 bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-500">
                <tr>
                  <th className="w-8 px-3 py-2" />
                  <th className="px-3 py-2">Batch</th>
                  <th className="px-3 py-2">Study</th>
                  <th className="px-3 py-2">Kinds</th>
                  <th className="px-3 py-2 text-right">Items</th>
                  <th className="px-3 py-2">Reviewed</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {batches.map((batch) => (
                  <tr key={batch.id} className={batchIds.includes(batch.id) ? "bg-brand-50/60" : "hover:bg-slate-50"}>
                    <td className="px-3 py-1.5">
                      <input type="checkbox" aria-label={`Review ${batch.fileName} of ${batch.study.title}`} checked={batchIds.includes(batch.id)} onChange={() => setBatchIds((ids) => toggle(ids, batch.id))} className="h-4 w-4" />
                    </td>
                    <td className="px-3 py-1.5 font-medium text-slate-800">{batch.fileName}</td>
                    <td className="px-3 py-1.5 text-slate-600">{batch.study.title}</td>
                    <td className="px-3 py-1.5 text-xs text-slate-600">{batch.kinds.map((k) => `${k.kind} (${k.count})`).join(", ")}</td>
                    <td className="px-3 py-1.5 text-right tabular-nums">{batch.itemCount}</td>
                    <td className="px-3 py-1.5 text-xs text-slate-500">{batch.reviews > 0 ? `in ${batch.reviews} review${batch.reviews === 1 ? "" : "s"}` : "not yet"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {batchIds.length > 0 ? <p className="text-xs text-slate-600">{items} items in {batchIds.length} batch{batchIds.length === 1 ? "" : "es"}.</p> : null}
      </fieldset>

      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-slate-800">Axes</legend>
        <p className="text-xs text-slate-500">Reviewers pass or fail each item on every axis (keys 1–{axes.length} on their page); a fail needs a reason. The defaults are ESI-Bench’s.</p>
        {errors.axes ? <p className="text-sm text-red-700">{errors.axes}</p> : null}
        <ol className="space-y-2">
          {axes.map((axis, i) => (
            <li key={i} className="grid grid-cols-[1.5rem_10rem_12rem_minmax(0,1fr)_auto] items-center gap-2">
              <span className="text-sm font-semibold text-slate-500">{i + 1}</span>
              <input aria-label={`Axis ${i + 1} key`} value={axis.key} onChange={(e) => setAxes((list) => list.map((a, j) => (j === i ? { ...a, key: e.target.value } : a)))} className={`${inputClass} font-mono`} />
              <input aria-label={`Axis ${i + 1} label`} value={axis.label} onChange={(e) => setAxes((list) => list.map((a, j) => (j === i ? { ...a, label: e.target.value } : a)))} className={inputClass} />
              <input aria-label={`Axis ${i + 1} description`} value={axis.description} onChange={(e) => setAxes((list) => list.map((a, j) => (j === i ? { ...a, description: e.target.value } : a)))} className={inputClass} />
              <Button type="button" variant="ghost" size="sm" onClick={() => setAxes((list) => list.filter((_, j) => j !== i))} disabled={axes.length <= 1} aria-label={`Remove axis ${i + 1}`}>
                Remove
              </Button>
            </li>
          ))}
        </ol>
        <Button type="button" variant="secondary" size="sm" disabled={axes.length >= 9} onClick={() => setAxes((list) => [...list, { key: `axis_${list.length + 1}`, label: "", description: "" }])}>
          Add an axis
        </Button>
      </fieldset>

      <div className="grid gap-4 md:grid-cols-3">
        <Field label="Reviewers per item" error={errors.reviewersPerItem}>
          <input type="number" min={1} max={15} value={perItem} onChange={(e) => setPerItem(e.target.value)} className={inputClass} />
        </Field>
        <Field label="Rule that keeps an item" error={errors.keepRule}>
          <select value={keepRule} onChange={(e) => setKeepRule(e.target.value as KeepRule)} className={inputClass}>
            {Object.entries(keepRuleLabels).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Ties (even numbers of reviewers)" error={errors.tieRule}>
          <select value={tieRule} onChange={(e) => setTieRule(e.target.value as TieRule)} className={inputClass}>
            {Object.entries(tieRuleLabels).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </Field>
      </div>

      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-slate-800">Reviewers ({reviewerIds.length} picked)</legend>
        <p className="text-xs text-slate-500">Any user can review: being picked here grants it. Reviewers see the answer keys, so members of the studies under review cannot review them.</p>
        {errors.reviewerIds ? <p className="text-sm text-red-700">{errors.reviewerIds}</p> : null}
        <ul className="grid max-h-56 grid-cols-1 gap-1 overflow-y-auto rounded-md border border-slate-200 p-2 sm:grid-cols-2 lg:grid-cols-3">
          {reviewers.map((user) => {
            const conflict = user.studies.filter((slug) => pickedStudies.has(slug));
            return (
              <li key={user.id}>
                <label className={`flex items-center gap-2 rounded px-2 py-1 text-sm ${conflict.length > 0 ? "text-slate-400" : "hover:bg-slate-50"}`} title={conflict.length > 0 ? `Annotates ${conflict.join(", ")}` : undefined}>
                  <input type="checkbox" checked={reviewerIds.includes(user.id)} disabled={conflict.length > 0 && !reviewerIds.includes(user.id)} onChange={() => setReviewerIds((ids) => toggle(ids, user.id))} className="h-4 w-4" />
                  <span className="truncate">{user.name}</span>
                  <span className="ml-auto shrink-0 rounded-full bg-slate-100 px-1.5 text-[11px] text-slate-600">{user.role.toLowerCase()}</span>
                  {conflict.length > 0 ? <span className="shrink-0 text-[11px] text-amber-700">annotates</span> : null}
                </label>
              </li>
            );
          })}
        </ul>
      </fieldset>

      {errors.form ? <p className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">{errors.form}</p> : null}
      <div className="flex items-center gap-3">
        <Button type="submit" disabled={pending}>
          {pending ? "Creating…" : "Create the review study"}
        </Button>
        <span className="text-xs text-slate-500">Reviewers can start at once.</span>
      </div>
    </form>
  );
}
