"use client";

import { useMemo, useState } from "react";
import { useRouter } from "next/navigation";
import { useFieldArray, useForm, useWatch } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import type { z } from "zod";
import { Button } from "@/components/ui/button";
import { DEFAULT_REVIEW_AXES, DEFAULT_REVIEWERS_PER_ITEM, reviewStudyCreateSchema, type ReviewStudyCreateInput } from "@/lib/validations/review";
import { keepRuleLabels, tieRuleLabels } from "@/lib/review/rules";
import { Field, inputClass } from "@/components/ui/field";
import { callApi } from "@/lib/client/api";
import { showServerIssues } from "@/lib/client/form-issues";

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

/** The first message in a field's errors, however deep (an array's own, or one of its entries'). */
function firstMessage(error: unknown): string | undefined {
  if (!error || typeof error !== "object") return undefined;
  const { message } = error as { message?: unknown };
  if (typeof message === "string") return message;
  for (const value of Object.values(error)) {
    const found = firstMessage(value);
    if (found) return found;
  }
  return undefined;
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
  const [slugTouched, setSlugTouched] = useState(false);
  const {
    register,
    control,
    handleSubmit,
    setValue,
    setError,
    formState: { errors: formErrors, isSubmitting, isSubmitSuccessful, isSubmitted },
  } = useForm<z.input<typeof reviewStudyCreateSchema>, unknown, ReviewStudyCreateInput>({
    resolver: zodResolver(reviewStudyCreateSchema),
    defaultValues: {
      title: "",
      slug: "",
      instructions: "",
      batchIds: [],
      axes: DEFAULT_REVIEW_AXES.map((axis) => ({ ...axis })),
      reviewersPerItem: String(DEFAULT_REVIEWERS_PER_ITEM),
      keepRule: "MAJORITY_ALL_AXES",
      tieRule: "CONTESTED",
      reviewerIds: [],
    },
  });
  const { fields: axes, append: appendAxis, remove: removeAxis } = useFieldArray({ control, name: "axes" });
  const batchIds = useWatch({ control, name: "batchIds" });
  const reviewerIds = useWatch({ control, name: "reviewerIds" });
  // stays "Creating…" while the next page loads
  const pending = isSubmitting || isSubmitSuccessful;
  const errors = {
    title: formErrors.title?.message,
    slug: formErrors.slug?.message,
    instructions: formErrors.instructions?.message,
    batchIds: firstMessage(formErrors.batchIds),
    axes: firstMessage(formErrors.axes),
    reviewersPerItem: formErrors.reviewersPerItem?.message,
    keepRule: formErrors.keepRule?.message,
    tieRule: formErrors.tieRule?.message,
    reviewerIds: firstMessage(formErrors.reviewerIds),
    form: formErrors.root?.message,
  };

  // studies of the picked batches: their members would see the keys of items they annotate
  const pickedStudies = useMemo(() => new Set(batches.filter((b) => batchIds.includes(b.id)).map((b) => b.study.slug)), [batches, batchIds]);
  const items = batches.filter((b) => batchIds.includes(b.id)).reduce((sum, b) => sum + b.itemCount, 0);
  const toggle = (list: string[], id: string) => (list.includes(id) ? list.filter((x) => x !== id) : [...list, id]);
  const pick = (field: "batchIds" | "reviewerIds", id: string) =>
    setValue(field, toggle(field === "batchIds" ? batchIds : reviewerIds, id), { shouldValidate: isSubmitted });

  async function create(values: ReviewStudyCreateInput) {
    const result = await callApi<{ slug: string }>("/api/review/studies", { json: values });
    if (!result.ok) {
      // a refusal without issues may still name its field (details.path)
      const path = (result.details as { path?: string } | undefined)?.path;
      showServerIssues(
        setError,
        result,
        "Could not create the review study",
        result.issues ?? (path ? [{ path, message: result.error ?? "Could not create the review study" }] : undefined),
      );
      return;
    }
    router.push(`/review/${result.data.slug}/results`);
    router.refresh();
  }

  return (
    <form onSubmit={handleSubmit(create)} className="space-y-6" aria-label="New review study">
      <div className="grid gap-4 md:grid-cols-2">
        <Field label="Title" error={errors.title}>
          <input
            {...register("title", {
              onChange: (e: React.ChangeEvent<HTMLInputElement>) => {
                if (!slugTouched) setValue("slug", slugify(e.target.value));
              },
            })}
            required
            className={inputClass}
            placeholder="ENACT pilot batch: item check"
          />
        </Field>
        <Field label="Slug" hint="Reviewers work at /review/<slug>" error={errors.slug}>
          <input {...register("slug", { onChange: () => setSlugTouched(true) })} required className={`${inputClass} font-mono`} />
        </Field>
      </div>
      <Field label="Instructions for reviewers" hint="Markdown; shown under “Guide” on the reviewer’s page (optional)" error={errors.instructions}>
        <textarea
          {...register("instructions")}
          rows={3}
          className="w-full rounded-md border border-slate-300 px-3 py-2 text-sm outline-none focus:border-brand-500 focus:ring-2 focus:ring-brand-100"
        />
      </Field>

      <fieldset className="min-w-0 space-y-2">
        <legend className="text-sm font-medium text-slate-800">Batches to review</legend>
        <p className="text-xs text-slate-500">
          Items with the same id and content in several batches or studies are reviewed once; the outcome applies to every study that holds them.
        </p>
        {errors.batchIds ? <p className="text-sm text-red-700">{errors.batchIds}</p> : null}
        {batches.length === 0 ? (
          <p className="rounded-md border border-dashed border-slate-300 p-4 text-sm text-slate-500">
            No batches yet: an admin imports batches into a study first.
          </p>
        ) : (
          <div className="max-h-64 overflow-auto rounded-md border border-slate-200">
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
                      <input
                        type="checkbox"
                        aria-label={`Review ${batch.fileName} of ${batch.study.title}`}
                        checked={batchIds.includes(batch.id)}
                        onChange={() => pick("batchIds", batch.id)}
                        className="h-4 w-4"
                      />
                    </td>
                    <td className="px-3 py-1.5 font-medium text-slate-800">{batch.fileName}</td>
                    <td className="px-3 py-1.5 text-slate-600">{batch.study.title}</td>
                    <td className="px-3 py-1.5 text-xs text-slate-600">{batch.kinds.map((k) => `${k.kind} (${k.count})`).join(", ")}</td>
                    <td className="px-3 py-1.5 text-right tabular-nums">{batch.itemCount}</td>
                    <td className="px-3 py-1.5 text-xs text-slate-500">
                      {batch.reviews > 0 ? `in ${batch.reviews} review${batch.reviews === 1 ? "" : "s"}` : "not yet"}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {batchIds.length > 0 ? (
          <p className="text-xs text-slate-600">
            {items} items in {batchIds.length} batch{batchIds.length === 1 ? "" : "es"}.
          </p>
        ) : null}
      </fieldset>

      <fieldset className="min-w-0 space-y-2">
        <legend className="text-sm font-medium text-slate-800">Axes</legend>
        <p className="text-xs text-slate-500">
          Reviewers pass or fail each item on every axis (keys 1–{axes.length} on their page); a fail needs a reason. The defaults are ESI-Bench’s.
        </p>
        {errors.axes ? <p className="text-sm text-red-700">{errors.axes}</p> : null}
        <ol className="space-y-2">
          {axes.map((axis, i) => (
            // on a phone the description takes a row of its own under the key and the label
            <li
              key={axis.id}
              className="grid grid-cols-[1.5rem_minmax(0,1fr)_minmax(0,1fr)_auto] items-center gap-2 md:grid-cols-[1.5rem_10rem_12rem_minmax(0,1fr)_auto]"
            >
              <span className="text-sm font-semibold text-slate-500">{i + 1}</span>
              <input aria-label={`Axis ${i + 1} key`} {...register(`axes.${i}.key`)} className={`${inputClass} font-mono`} />
              <input aria-label={`Axis ${i + 1} label`} {...register(`axes.${i}.label`)} className={inputClass} />
              <input
                aria-label={`Axis ${i + 1} description`}
                placeholder="Description"
                {...register(`axes.${i}.description`)}
                className={`${inputClass} max-md:order-last max-md:col-span-3 max-md:col-start-2`}
              />
              <Button type="button" variant="ghost" size="sm" onClick={() => removeAxis(i)} disabled={axes.length <= 1} aria-label={`Remove axis ${i + 1}`}>
                Remove
              </Button>
            </li>
          ))}
        </ol>
        <Button
          type="button"
          variant="secondary"
          size="sm"
          disabled={axes.length >= 9}
          onClick={() => appendAxis({ key: `axis_${axes.length + 1}`, label: "", description: "" })}
        >
          Add an axis
        </Button>
      </fieldset>

      <div className="grid gap-4 md:grid-cols-3">
        <Field label="Reviewers per item" error={errors.reviewersPerItem}>
          <input {...register("reviewersPerItem")} type="number" min={1} max={15} className={inputClass} />
        </Field>
        <Field label="Rule that keeps an item" error={errors.keepRule}>
          <select {...register("keepRule")} className={inputClass}>
            {Object.entries(keepRuleLabels).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Ties (even numbers of reviewers)" error={errors.tieRule}>
          <select {...register("tieRule")} className={inputClass}>
            {Object.entries(tieRuleLabels).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </Field>
      </div>

      <fieldset className="min-w-0 space-y-2">
        <legend className="text-sm font-medium text-slate-800">Reviewers ({reviewerIds.length} picked)</legend>
        <p className="text-xs text-slate-500">
          Any user can review: being picked here grants it. Reviewers see the answer keys, so members of the studies under review cannot review them.
        </p>
        {errors.reviewerIds ? <p className="text-sm text-red-700">{errors.reviewerIds}</p> : null}
        <ul className="grid max-h-56 grid-cols-1 gap-1 overflow-y-auto rounded-md border border-slate-200 p-2 sm:grid-cols-2 lg:grid-cols-3">
          {reviewers.map((user) => {
            const conflict = user.studies.filter((slug) => pickedStudies.has(slug));
            return (
              <li key={user.id}>
                <label
                  className={`flex items-center gap-2 rounded px-2 py-1 text-sm ${conflict.length > 0 ? "text-slate-400" : "hover:bg-slate-50"}`}
                  title={conflict.length > 0 ? `Annotates ${conflict.join(", ")}` : undefined}
                >
                  <input
                    type="checkbox"
                    checked={reviewerIds.includes(user.id)}
                    disabled={conflict.length > 0 && !reviewerIds.includes(user.id)}
                    onChange={() => pick("reviewerIds", user.id)}
                    className="h-4 w-4"
                  />
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
