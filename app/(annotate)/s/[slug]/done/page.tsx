import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { requirePageRole } from "@/lib/auth/session";
import { getMemberStudy } from "@/lib/annotate/studies";
import { orPageError } from "@/lib/annotate/page-access";
import { nextForMember } from "@/lib/annotate/next";
import { Card } from "@/components/ui/card";
import { buttonClass } from "@/components/ui/button";
import { Completion } from "@/components/annotate/completion";
import { StudyContactLine } from "@/components/annotate/team-contact";
import { contactOf } from "@/lib/studies/contact";

export const metadata: Metadata = { title: "Done" };

export default async function DonePage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const user = await requirePageRole(`/s/${slug}/done`);
  const study = await orPageError(getMemberStudy(slug, user.id));
  const next = await nextForMember(slug, user.id);
  if (next.status === "excluded" || next.status === "timed_out" || next.status === "returned") redirect(`/s/${slug}/ended`);
  if (next.status === "consent" || next.status === "tutorial") redirect(next.path);
  const { progress } = next;
  return (
    <div className="mx-auto max-w-xl py-10">
      <Card className="px-8 py-8 text-center">
        {next.status === "done" || next.status === "quota" ? (
          <>
            <div aria-hidden className="mx-auto mb-3 grid h-12 w-12 place-items-center rounded-full bg-emerald-100 text-2xl text-emerald-700">
              ✓
            </div>
            <h1 className="text-2xl font-semibold tracking-tight">Thank you: you are done</h1>
            <p className="mt-2 text-sm text-slate-600">
              You answered {progress.main.done} item{progress.main.done === 1 ? "" : "s"} of “{study.title}”.
            </p>
            <Completion code={next.completion.code} redirectUrl={next.completion.redirectUrl} />
          </>
        ) : next.status === "full" ? (
          <>
            <h1 className="text-2xl font-semibold tracking-tight">This study is full</h1>
            <p className="mt-2 text-sm text-slate-600">
              Every place is taken, so there is nothing left for you. Thank you for your interest.
              {next.completion.code || next.completion.redirectUrl ? "" : " If you came from a recruitment platform, please return there."}
            </p>
            {next.completion.code || next.completion.redirectUrl ? (
              <Completion code={next.completion.code} redirectUrl={next.completion.redirectUrl} label="Your code for the recruitment platform:" />
            ) : null}
          </>
        ) : next.status === "paused" || next.status === "closed" ? (
          <>
            <h1 className="text-2xl font-semibold tracking-tight">{next.status === "paused" ? "The study is paused" : "The study is closed"}</h1>
            <p className="mt-2 text-sm text-slate-600">
              You have done {progress.main.done} of {progress.main.total} items.{" "}
              {next.status === "paused" ? "Your work is saved: please come back later." : "It takes no more answers."}
            </p>
          </>
        ) : (
          <>
            <h1 className="text-2xl font-semibold tracking-tight">Not finished yet</h1>
            <p className="mt-2 text-sm text-slate-600">
              You have done {progress.main.done} of {progress.main.total} items. There is more to do.
            </p>
            <Link href={`/s/${slug}/work`} className={buttonClass("primary", "md", "mt-6")}>
              Continue
            </Link>
          </>
        )}
        <div className="mt-6">
          <Link href="/studies" className="text-sm text-brand-700 hover:underline">
            Back to my studies
          </Link>
        </div>
      </Card>
      <StudyContactLine contact={contactOf(study)} studyTitle={study.title} />
    </div>
  );
}
