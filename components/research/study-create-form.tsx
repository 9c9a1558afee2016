"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import type { z } from "zod";
import { Button } from "@/components/ui/button";
import { Field, inputClass } from "@/components/ui/field";
import { callApi } from "@/lib/client/api";
import { showServerIssues } from "@/lib/client/form-issues";
import { studyCreateSchema, type StudyCreateInput } from "@/lib/validations/study";

function slugify(title: string): string {
  return title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60);
}

/** POST /api/studies, checked in the browser by the schema the route uses; the server's issues land on their fields. */
export function StudyCreateForm() {
  const router = useRouter();
  const [slugTouched, setSlugTouched] = useState(false);
  const {
    register,
    handleSubmit,
    setValue,
    setError,
    formState: { errors, isSubmitting, isSubmitSuccessful },
  } = useForm<z.input<typeof studyCreateSchema>, unknown, StudyCreateInput>({
    resolver: zodResolver(studyCreateSchema),
    defaultValues: { title: "", slug: "", instructions: "", overlap: 3, confidenceScale: "LIKERT_5" },
  });
  // stays "Creating…" while the next page loads
  const pending = isSubmitting || isSubmitSuccessful;

  async function create(values: StudyCreateInput) {
    const result = await callApi<{ slug: string }>("/api/studies", { json: values });
    if (!result.ok) {
      showServerIssues(setError, result, "Could not create the study");
      return;
    }
    router.push(`/research/studies/${result.data.slug}`);
    router.refresh();
  }

  return (
    <form onSubmit={handleSubmit(create)} className="space-y-5">
      <Field label="Title" error={errors.title?.message}>
        <input
          {...register("title", {
            onChange: (e: React.ChangeEvent<HTMLInputElement>) => {
              if (!slugTouched) setValue("slug", slugify(e.target.value));
            },
          })}
          required
          className={inputClass}
          placeholder="ENACT human baseline, pilot"
        />
      </Field>
      <Field label="Slug" hint="Used in links: /s/<slug>" error={errors.slug?.message}>
        <input {...register("slug", { onChange: () => setSlugTouched(true) })} required className={`${inputClass} font-mono`} />
      </Field>
      <Field label="Instructions (Markdown)" hint="Shown to annotators before practice items." error={errors.instructions?.message}>
        <textarea
          {...register("instructions")}
          rows={8}
          className="w-full rounded-md border border-slate-300 px-3 py-2 text-sm outline-none focus:border-brand-500 focus:ring-2 focus:ring-brand-100"
        />
      </Field>
      <div className="grid gap-5 sm:grid-cols-2">
        <Field label="Annotators per item (overlap k)" error={errors.overlap?.message}>
          <input {...register("overlap")} type="number" min={1} max={50} className={inputClass} />
        </Field>
        <Field label="Confidence scale" error={errors.confidenceScale?.message}>
          <select {...register("confidenceScale")} className={inputClass}>
            <option value="LIKERT_5">1 to 5 (buttons)</option>
            <option value="PERCENT">0 to 100% (slider)</option>
          </select>
        </Field>
      </div>
      {errors.root ? (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
          {errors.root.message}
        </p>
      ) : null}
      <div className="flex justify-end">
        <Button type="submit" disabled={pending}>
          {pending ? "Creating…" : "Create study"}
        </Button>
      </div>
    </form>
  );
}
