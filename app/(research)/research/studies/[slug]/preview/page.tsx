import type { Metadata } from "next";
import Link from "next/link";
import { requirePageRole } from "@/lib/auth/session";
import { getStudyPreview } from "@/lib/studies/preview";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { Badge } from "@/components/ui/badge";
import { buttonClass } from "@/components/ui/button";
import { StudyMarkdown } from "@/components/annotate/markdown";
import { PreviewItem } from "@/components/research/preview-item";

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
export default async function StudyPreviewPage({ params, searchParams }: { params: Promise<{ slug: string }>; searchParams: Promise<Record<string, string | undefined>> }) {
  const { slug } = await params;
  await requirePageRole(`/research/studies/${slug}/preview`, "ADMIN", "RESEARCHER");
  const query = await searchParams;
  const step = stepOf(query);
  const preview = await getStudyPreview(slug, step.name === "item" ? step.n : 0);
  const base = `/research/studies/${slug}/preview`;
  const steps: Array<{ key: string; label: string; href: string }> = [{ key: "start", label: "Start", href: base }];
  if (preview.consentMarkdown) steps.push({ key: "consent", label: "Consent", href: `${base}?step=consent` });
  preview.tutorialPages.forEach((_, i) => steps.push({ key: `tutorial-${i}`, label: preview.tutorialPages.length > 1 ? `Tutorial ${i + 1}` : "Tutorial", href: `${base}?step=tutorial&page=${i}` }));
  if (preview.items.total > 0) steps.push({ key: "item", label: `Items (${preview.items.total})`, href: `${base}?step=item&n=0` });
  const currentKey = step.name === "tutorial" ? `tutorial-${Math.min(step.page, Math.max(0, preview.tutorialPages.length - 1))}` : step.name;
  const position = Math.max(0, steps.findIndex((s) => s.key === currentKey));
  const nextStep = steps[position + 1] ?? null;
  const item = preview.item;
  const itemHref = (n: number) => `${base}?step=item&n=${n}`;

  return (
    <div className="space-y-4" data-testid="study-preview">
      <p role="note" className="rounded-lg border border-violet-200 bg-violet-50 px-4 py-2 text-sm text-violet-900">
        <strong className="font-semibold">Preview as a participant.</strong> Nothing you do here is recorded: no place is taken, no answer or event is stored, and the answer key stays on the server.
      </p>
      <nav aria-label="Preview steps" className="flex flex-wrap gap-1.5 text-sm">
        {steps.map((s, i) => (
          <Link key={s.key} href={s.href} aria-current={i === position ? "step" : undefined} className={`rounded-full border px-2.5 py-0.5 text-xs font-medium ${i === position ? "border-brand-500 bg-brand-50 text-brand-700" : "border-slate-200 bg-white text-slate-600 hover:border-slate-300"}`}>
            {s.label}
          </Link>
        ))}
      </nav>

      {step.name === "start" ? (
        <Card>
          <CardHeader title={preview.title} description="The study's page, before a participant starts." />
          <CardBody className="space-y-4">
            {preview.instructions.trim() ? <StudyMarkdown>{preview.instructions}</StudyMarkdown> : <p className="text-sm text-slate-500">The study has no instructions (Settings).</p>}
            <p className="text-sm text-slate-600">
              {preview.items.total === 0 ? "No items yet: a participant would be told there is nothing to do." : `${preview.items.total} item${preview.items.total === 1 ? "" : "s"}${preview.items.practice > 0 ? `, ${preview.items.practice} of them practice (shown first)` : ""}.`}
            </p>
            {nextStep ? (
              <Link href={nextStep.href} className={buttonClass("primary", "md")}>
                Start
              </Link>
            ) : null}
          </CardBody>
        </Card>
      ) : null}

      {step.name === "consent" ? (
        <Card>
          <CardHeader title="Consent" description={`Version ${preview.consentVersion}. Please read this before you take part.`} />
          <CardBody className="space-y-4">
            {preview.consentMarkdown ? (
              <div className="max-h-[55vh] overflow-y-auto rounded-md border border-slate-200 px-4 py-2" data-testid="consent-text" tabIndex={0} aria-label="Consent text">
                <StudyMarkdown>{preview.consentMarkdown}</StudyMarkdown>
              </div>
            ) : (
              <p className="text-sm text-slate-500">The study asks for no consent.</p>
            )}
            {nextStep ? (
              <Link href={nextStep.href} className={buttonClass("primary", "md")}>
                I agree (preview: not recorded)
              </Link>
            ) : null}
          </CardBody>
        </Card>
      ) : null}

      {step.name === "tutorial" ? (
        preview.tutorialPages.length === 0 ? (
          <p className="text-sm text-slate-500">The study has no tutorial.</p>
        ) : (
          <Card>
            {(() => {
              const page = Math.min(step.page, preview.tutorialPages.length - 1);
              const tutorial = preview.tutorialPages[page];
              return (
                <>
                  <CardHeader title={tutorial.title} description={`Tutorial, page ${page + 1} of ${preview.tutorialPages.length}`} />
                  <CardBody className="space-y-4">
                    <StudyMarkdown>{tutorial.body}</StudyMarkdown>
                    {nextStep ? (
                      <Link href={nextStep.href} className={buttonClass("primary", "md")}>
                        {nextStep.key === "item" ? "Start the items" : "Next"}
                      </Link>
                    ) : null}
                  </CardBody>
                </>
              );
            })()}
          </Card>
        )
      ) : null}

      {step.name === "item" ? (
        item ? (
          <div className="space-y-2">
            <div className="flex flex-wrap items-center gap-2 text-sm text-slate-600">
              <span className="font-medium text-slate-800">
                Item {item.index + 1} of {preview.items.total}
              </span>
              <span className="min-w-0 break-all font-mono text-xs">{item.externalId}</span>
              <span>{item.kind}</span>
              {item.role !== "ordinary" ? <Badge tone={item.role === "practice" ? "blue" : "amber"}>{item.role}</Badge> : null}
              <span className="ml-auto flex gap-2">
                {item.index > 0 ? (
                  <Link href={itemHref(item.index - 1)} className={buttonClass("secondary", "sm")}>
                    Previous item
                  </Link>
                ) : null}
                {item.index + 1 < preview.items.total ? (
                  <Link href={itemHref(item.index + 1)} className={buttonClass("secondary", "sm")}>
                    Next item
                  </Link>
                ) : null}
              </span>
            </div>
            {item.role === "practice" ? <p className="text-xs text-slate-500">A practice item: after submitting, a participant sees the right answer (not shown in the preview).</p> : null}
            {item.interactive ? <p className="text-xs text-amber-800">This kind plays step by step against the server, which stores every step: the preview shows it but cannot play it.</p> : null}
            {item.problem || !item.view ? (
              <p role="alert" className="text-sm text-red-700">
                {item.problem ?? "The item cannot be shown."}
              </p>
            ) : (
              <PreviewItem key={item.externalId} kind={item.kind} view={item.view} confidenceScale={preview.confidenceScale} idleCapSeconds={preview.idleCapSeconds} nextHref={item.index + 1 < preview.items.total ? itemHref(item.index + 1) : null} />
            )}
          </div>
        ) : (
          <p className="text-sm text-slate-500">The study has no items yet.</p>
        )
      ) : null}
    </div>
  );
}
