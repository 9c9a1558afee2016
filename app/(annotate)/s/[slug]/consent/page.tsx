import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { requirePageRole } from "@/lib/auth/session";
import { orPageError } from "@/lib/annotate/page-access";
import { getParticipation } from "@/lib/participants/participants";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { buttonClass } from "@/components/ui/button";
import { StudyMarkdown } from "@/components/annotate/markdown";
import { ConsentForm } from "@/components/annotate/consent-form";
import { getMemberStudy } from "@/lib/annotate/studies";
import { StudyContactLine } from "@/components/annotate/team-contact";
import { contactOf } from "@/lib/studies/contact";

export const metadata: Metadata = { title: "Consent" };

/** The study's consent text; accepting it (this version) comes before any work, and again when the text changes. */
export default async function ConsentPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const user = await requirePageRole(`/s/${slug}/consent`);
  const [p, study] = await Promise.all([orPageError(getParticipation(slug, user.id)), orPageError(getMemberStudy(slug, user.id))]);
  if (p.status === "EXCLUDED" || p.status === "TIMED_OUT" || p.status === "RETURNED") redirect(`/s/${slug}/ended`);
  if (!p.consentMarkdown) redirect(`/s/${slug}`);
  const next = p.tutorialNeeded ? `/s/${slug}/tutorial` : `/s/${slug}`;
  return (
    <div className="mx-auto max-w-3xl py-4">
      <h1 className="text-2xl font-semibold tracking-tight">{p.title}</h1>
      <Card className="mt-4">
        <CardHeader
          title="Consent"
          description={
            p.acceptedVersion !== null && p.consentNeeded
              ? "The consent text has changed since you agreed to it. Please read it again."
              : "Please read this before you take part."
          }
        />
        <CardBody className="space-y-5">
          <div
            className="max-h-[55vh] overflow-y-auto rounded-md border border-slate-200 px-4 py-2"
            data-testid="consent-text"
            tabIndex={0}
            aria-label="Consent text"
          >
            <StudyMarkdown>{p.consentMarkdown}</StudyMarkdown>
          </div>
          {p.consentNeeded ? (
            <ConsentForm slug={slug} version={p.consentVersion} next={next} />
          ) : (
            <div className="flex flex-wrap items-center gap-3 text-sm text-slate-600">
              <span data-testid="consent-given">
                You agreed to this text (version {p.consentVersion})
                {p.consentedAt ? ` on ${p.consentedAt.toISOString().slice(0, 16).replace("T", " ")} UTC` : ""}.
              </span>
              <Link href={`/s/${slug}`} className={buttonClass("secondary", "sm")}>
                Back to the study
              </Link>
            </div>
          )}
        </CardBody>
      </Card>
      <StudyContactLine contact={contactOf(study)} studyTitle={study.title} />
    </div>
  );
}
