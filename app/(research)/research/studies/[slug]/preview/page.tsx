import type { Metadata } from "next";
import Link from "next/link";
import { requirePageRole } from "@/lib/auth/session";
import { getStudyPreview } from "@/lib/studies/preview";
import { PreviewConsent, PreviewItemStep, PreviewStart, PreviewTutorial } from "@/components/research/preview-steps";

export const metadata: Metadata = { title: "Preview as a participant" };

type Step = { name: "start" } | { name: "consent" } | { name: "tutorial"; page: number } | { name: "item"; n: number };

function stepOf(query: Record<string, string | undefined>): Step {
  const number = (text: string | undefined) => (text && /^\d{1,6}$/.test(text) ? Number(text) : 0);
  if (query.step === "consent") return { name: "consent" };
  if (query.step === "tutorial") return { name: "tutorial", page: number(query.page) };
  if (query.step === "item") return { name: "item", n: number(query.n) };
  return { name: "start" };
}

/**
 * The study as a participant meets it (the start, consent, the tutorial, the items), for its
 * researchers, without taking part: nothing is recorded (lib/studies/preview.ts reads only; the
 * item's store sends nowhere: components/research/preview-item.tsx).
 */
export default async function StudyPreviewPage({
  params,
  searchParams,
}: {
  params: Promise<{ slug: string }>;
  searchParams: Promise<Record<string, string | undefined>>;
}) {
  const { slug } = await params;
  await requirePageRole(`/research/studies/${slug}/preview`, "ADMIN", "RESEARCHER");
  const query = await searchParams;
  const step = stepOf(query);
  const preview = await getStudyPreview(slug, step.name === "item" ? step.n : 0);
  const base = `/research/studies/${slug}/preview`;
  const steps: Array<{ key: string; label: string; href: string }> = [{ key: "start", label: "Start", href: base }];
  if (preview.consentMarkdown) steps.push({ key: "consent", label: "Consent", href: `${base}?step=consent` });
  preview.tutorialPages.forEach((_, i) =>
    steps.push({ key: `tutorial-${i}`, label: preview.tutorialPages.length > 1 ? `Tutorial ${i + 1}` : "Tutorial", href: `${base}?step=tutorial&page=${i}` }),
  );
  if (preview.items.total > 0) steps.push({ key: "item", label: `Items (${preview.items.total})`, href: `${base}?step=item&n=0` });
  const currentKey = step.name === "tutorial" ? `tutorial-${Math.min(step.page, Math.max(0, preview.tutorialPages.length - 1))}` : step.name;
  const position = Math.max(
    0,
    steps.findIndex((s) => s.key === currentKey),
  );
  const nextStep = steps[position + 1] ?? null;
  const itemHref = (n: number) => `${base}?step=item&n=${n}`;

  return (
    <div className="space-y-4" data-testid="study-preview">
      <p role="note" className="rounded-lg border border-violet-200 bg-violet-50 px-4 py-2 text-sm text-violet-900">
        <strong className="font-semibold">Preview as a participant.</strong> Nothing you do here is recorded: no place is taken, no answer or event is stored,
        and the answer key stays on the server.
      </p>
      <nav aria-label="Preview steps" className="flex flex-wrap gap-1.5 text-sm">
        {steps.map((s, i) => (
          <Link
            key={s.key}
            href={s.href}
            aria-current={i === position ? "step" : undefined}
            className={`rounded-full border px-2.5 py-0.5 text-xs font-medium ${i === position ? "border-brand-500 bg-brand-50 text-brand-700" : "border-slate-200 bg-white text-slate-600 hover:border-slate-300"}`}
          >
            {s.label}
          </Link>
        ))}
      </nav>

      {step.name === "start" ? <PreviewStart preview={preview} nextStep={nextStep} /> : null}
      {step.name === "consent" ? <PreviewConsent preview={preview} nextStep={nextStep} /> : null}
      {step.name === "tutorial" ? <PreviewTutorial preview={preview} page={step.page} nextStep={nextStep} /> : null}
      {step.name === "item" ? <PreviewItemStep preview={preview} itemHref={itemHref} /> : null}
    </div>
  );
}
