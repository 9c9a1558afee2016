import type { Metadata } from "next";
import Link from "next/link";
import ReactMarkdown from "react-markdown";
import { requirePageRole } from "@/lib/auth/session";
import { getMemberStudy } from "@/lib/annotate/studies";
import { orPageError } from "@/lib/annotate/page-access";
import { redirect } from "next/navigation";
import { progressFor } from "@/lib/assignment";
import { getParticipation } from "@/lib/participants/participants";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { buttonClass } from "@/components/ui/button";
import { ProgressBar } from "@/components/annotate/progress-bar";
import { StudyContactLine } from "@/components/annotate/team-contact";
import { contactOf } from "@/lib/studies/contact";

export const metadata: Metadata = { title: "Study" };

export default async function StudyHomePage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const user = await requirePageRole(`/s/${slug}`);
  const study = await orPageError(getMemberStudy(slug, user.id));
  const participation = await getParticipation(slug, user.id);
  if (participation.status === "EXCLUDED" || participation.status === "TIMED_OUT" || participation.status === "RETURNED") redirect(`/s/${slug}/ended`);
  if (participation.consentNeeded) redirect(`/s/${slug}/consent`);
  const progress = await progressFor(study.id, user.id);
  const started = progress.practice.done + progress.main.done > 0 || progress.open > 0;
  const open = study.status === "OPEN";
  const full = progress.finished && progress.main.done === 0 && progress.open === 0;
  const startPath = participation.tutorialNeeded ? `/s/${slug}/tutorial` : `/s/${slug}/work`;
  const startLabel = started
    ? "Continue where you left off"
    : participation.tutorialNeeded
      ? "Start with the tutorial"
      : progress.practice.total > 0
        ? "Start with practice"
        : "Start";
  return (
    <div className="mx-auto grid max-w-5xl gap-5 py-4 lg:grid-cols-[minmax(0,1fr)_18rem]">
      <div className="min-w-0">
        <Link href="/studies" className="text-sm text-slate-500 hover:text-slate-800">
          ← My studies
        </Link>
        <h1 className="mt-1 text-2xl font-semibold tracking-tight">{study.title}</h1>
        <Card className="mt-4">
          <CardHeader title="Instructions" description="Please read them before you start; they stay here if you need them again (Pause on the item page)." />
          <CardBody>
            {study.instructions.trim() ? (
              <div className="prose-instructions text-sm text-slate-800">
                <ReactMarkdown>{study.instructions}</ReactMarkdown>
              </div>
            ) : (
              <p className="text-sm text-slate-500">This study has no written instructions.</p>
            )}
          </CardBody>
        </Card>
      </div>
      <aside className="lg:pt-12">
        <Card className="px-5 py-4">
          <h2 className="text-sm font-semibold text-slate-900">Your progress</h2>
          {progress.practice.total > 0 ? (
            <p className="mt-2 text-sm text-slate-600">
              Practice:{" "}
              <span className="tabular-nums">
                {progress.practice.done} of {progress.practice.total}
              </span>
              <span className="block text-xs text-slate-500">Practice items come first and show the right answer after you submit.</span>
            </p>
          ) : null}
          <div className="mt-2 text-sm text-slate-600">
            <span className="tabular-nums" data-testid="home-progress">
              {progress.main.done} of {progress.main.total} items done
            </span>
            <ProgressBar done={progress.main.done} total={progress.main.total} className="mt-1 w-full" />
          </div>
          <div className="mt-4">
            {full ? (
              <p className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900" role="status" data-testid="study-full">
                This study is full: every place is taken. Thank you for your interest; if you came from a recruitment platform, please return there.{" "}
                <Link href={`/s/${slug}/done`} className="font-medium underline">
                  What now
                </Link>
              </p>
            ) : progress.finished ? (
              <Link href={`/s/${slug}/done`} className={buttonClass("primary", "md", "w-full")}>
                Finished: see your code
              </Link>
            ) : open ? (
              <Link href={startPath} className={buttonClass("primary", "md", "w-full")}>
                {startLabel}
              </Link>
            ) : study.status === "PAUSED" ? (
              <p className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900" role="status" data-testid="study-paused">
                The study is paused for the moment. Your work is saved: please come back later
                {participation.tutorialNeeded ? "; you can read the tutorial meanwhile" : ""}.
              </p>
            ) : (
              <p className="text-sm text-slate-600">This study is {study.status === "CLOSED" ? "closed" : "not open yet"}.</p>
            )}
            {study.status === "PAUSED" && participation.tutorialNeeded ? (
              <Link href={`/s/${slug}/tutorial`} className={buttonClass("secondary", "sm", "mt-2 w-full")}>
                Read the tutorial
              </Link>
            ) : null}
          </div>
          <p className="mt-3 text-xs text-slate-500">Everything is saved as you go. You can stop at any time and continue later, on this or another device.</p>
          {participation.consentMarkdown ? (
            <p className="mt-2 text-xs text-slate-500">
              You agreed to the{" "}
              <Link className="underline hover:text-slate-800" href={`/s/${slug}/consent`}>
                consent form
              </Link>
              {participation.consentedAt ? ` on ${participation.consentedAt.toISOString().slice(0, 10)}` : ""}.
            </p>
          ) : null}
        </Card>
        <p className="mt-3 px-1 text-xs text-slate-500">
          <Link href={`/s/${slug}/withdraw`} className="underline hover:text-slate-800" data-testid="withdraw-link">
            Withdraw from this study
          </Link>{" "}
          (your answers are deleted).
        </p>
        <StudyContactLine contact={contactOf(study)} studyTitle={study.title} className="mt-2 px-1" />
      </aside>
    </div>
  );
}
