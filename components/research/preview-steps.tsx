import Link from "next/link";
import type { StudyPreview } from "@/lib/studies/preview";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { Badge } from "@/components/ui/badge";
import { buttonClass } from "@/components/ui/button";
import { StudyMarkdown } from "@/components/annotate/markdown";
import { PreviewItem } from "@/components/research/preview-item";

/** The steps of a study's preview as a participant (app/(research)/research/studies/[slug]/preview): each as its page shows it. */

export interface PreviewNext {
  key: string;
  href: string;
}

export function PreviewStart({ preview, nextStep }: { preview: StudyPreview; nextStep: PreviewNext | null }) {
  return (
    <Card>
      <CardHeader title={preview.title} description="The study's page, before a participant starts." />
      <CardBody className="space-y-4">
        {preview.instructions.trim() ? (
          <StudyMarkdown>{preview.instructions}</StudyMarkdown>
        ) : (
          <p className="text-sm text-slate-500">The study has no instructions (Settings).</p>
        )}
        <p className="text-sm text-slate-600">
          {preview.items.total === 0
            ? "No items yet: a participant would be told there is nothing to do."
            : `${preview.items.total} item${preview.items.total === 1 ? "" : "s"}${preview.items.practice > 0 ? `, ${preview.items.practice} of them practice (shown first)` : ""}.`}
        </p>
        {nextStep ? (
          <Link href={nextStep.href} className={buttonClass("primary", "md")}>
            Start
          </Link>
        ) : null}
      </CardBody>
    </Card>
  );
}

export function PreviewConsent({ preview, nextStep }: { preview: StudyPreview; nextStep: PreviewNext | null }) {
  return (
    <Card>
      <CardHeader title="Consent" description={`Version ${preview.consentVersion}. Please read this before you take part.`} />
      <CardBody className="space-y-4">
        {preview.consentMarkdown ? (
          <div
            className="max-h-[55vh] overflow-y-auto rounded-md border border-slate-200 px-4 py-2"
            data-testid="consent-text"
            tabIndex={0}
            aria-label="Consent text"
          >
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
  );
}

export function PreviewTutorial({ preview, page: asked, nextStep }: { preview: StudyPreview; page: number; nextStep: PreviewNext | null }) {
  if (preview.tutorialPages.length === 0) return <p className="text-sm text-slate-500">The study has no tutorial.</p>;
  const page = Math.min(asked, preview.tutorialPages.length - 1);
  const tutorial = preview.tutorialPages[page];
  return (
    <Card>
      <CardHeader title={tutorial.title} description={`Tutorial, page ${page + 1} of ${preview.tutorialPages.length}`} />
      <CardBody className="space-y-4">
        <StudyMarkdown>{tutorial.body}</StudyMarkdown>
        {nextStep ? (
          <Link href={nextStep.href} className={buttonClass("primary", "md")}>
            {nextStep.key === "item" ? "Start the items" : "Next"}
          </Link>
        ) : null}
      </CardBody>
    </Card>
  );
}

export function PreviewItemStep({ preview, itemHref }: { preview: StudyPreview; itemHref: (n: number) => string }) {
  const item = preview.item;
  if (!item) return <p className="text-sm text-slate-500">The study has no items yet.</p>;
  return (
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
      {item.role === "practice" ? (
        <p className="text-xs text-slate-500">A practice item: after submitting, a participant sees the right answer (not shown in the preview).</p>
      ) : null}
      {item.interactive ? (
        <p className="text-xs text-amber-800">
          This kind plays step by step against the server, which stores every step: the preview shows it but cannot play it.
        </p>
      ) : null}
      {item.problem || !item.view ? (
        <p role="alert" className="text-sm text-red-700">
          {item.problem ?? "The item cannot be shown."}
        </p>
      ) : (
        <PreviewItem
          key={item.externalId}
          kind={item.kind}
          view={item.view}
          confidenceScale={preview.confidenceScale}
          idleCapSeconds={preview.idleCapSeconds}
          nextHref={item.index + 1 < preview.items.total ? itemHref(item.index + 1) : null}
        />
      )}
    </div>
  );
}
