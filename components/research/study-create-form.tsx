"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";
import { Button } from "@/components/ui/button";
import { Field, inputClass } from "@/components/ui/field";
import { callApi } from "@/lib/client/api";

function slugify(title: string): string {
  return title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60);
}

export function StudyCreateForm() {
  const router = useRouter();
  const [title, setTitle] = useState("");
  const [slug, setSlug] = useState("");
  const [slugTouched, setSlugTouched] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [pending, setPending] = useState(false);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setPending(true);
    setErrors({});
    const form = new FormData(event.currentTarget);
    const result = await callApi<{ slug: string }>("/api/studies", {
      json: {
        title,
        slug,
        instructions: form.get("instructions"),
        overlap: form.get("overlap"),
        confidenceScale: form.get("confidenceScale"),
        probeMinGap: form.get("probeMinGap"),
      },
    });
    if (!result.ok) {
      setPending(false);
      const next: Record<string, string> = {};
      for (const issue of result.issues ?? []) next[issue.path] = issue.message;
      if (!result.issues) next.form = result.error ?? "Could not create the study";
      setErrors(next);
      return;
    }
    router.push(`/research/studies/${result.data.slug}`);
    router.refresh();
  }

  return (
    <form onSubmit={onSubmit} className="space-y-5">
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
          placeholder="ENACT human baseline, pilot"
        />
      </Field>
      <Field label="Slug" hint="Used in links: /s/<slug>" error={errors.slug}>
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
      <Field label="Instructions (Markdown)" hint="Shown to annotators before practice items." error={errors.instructions}>
        <textarea name="instructions" rows={8} className="w-full rounded-md border border-slate-300 px-3 py-2 text-sm outline-none focus:border-brand-500 focus:ring-2 focus:ring-brand-100" />
      </Field>
      <div className="grid gap-5 sm:grid-cols-2">
        <Field label="Annotators per item (overlap k)" error={errors.overlap}>
          <input name="overlap" type="number" min={1} max={50} defaultValue={3} className={inputClass} />
        </Field>
        <Field label="Confidence scale" error={errors.confidenceScale}>
          <select name="confidenceScale" defaultValue="LIKERT_5" className={inputClass}>
            <option value="LIKERT_5">1 to 5 (buttons)</option>
            <option value="PERCENT">0 to 100% (slider)</option>
          </select>
        </Field>
      </div>
      <Field label="Probe spacing (GridWM-Judge)" hint="Members of one probe family go to the same person, at least this many other items apart." error={errors.probeMinGap}>
        <input name="probeMinGap" type="number" min={0} max={100} defaultValue={5} className={`${inputClass} sm:w-40`} />
      </Field>
      {errors.form ? (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
          {errors.form}
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
