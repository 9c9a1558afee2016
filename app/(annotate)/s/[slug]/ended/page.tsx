import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { requirePageRole } from "@/lib/auth/session";
import { orPageError } from "@/lib/annotate/page-access";
import { getMemberStudy } from "@/lib/annotate/studies";
import { endingCompletion } from "@/lib/annotate/next";
import { endingOf, getParticipation } from "@/lib/participants/participants";
import type { EndingName } from "@/lib/validations/study-settings";
import { Card } from "@/components/ui/card";
import { Completion } from "@/components/annotate/completion";
import { TeamContact } from "@/components/annotate/team-contact";
import { contactOf } from "@/lib/studies/contact";

export const metadata: Metadata = { title: "Participation ended" };

/** Each ending's own wording (its code and redirect are study settings: Study.endings). */
const texts: Record<Exclude<EndingName, "full"> | "RETURNED", { title: string; body: string }> = {
  failedScreening: {
    title: "The practice did not reach the pass mark",
    body: "Before the real items, the study asks for a share of the practice items to be answered right, and yours did not reach it, so the study stops here for you. This is not a judgement of you: the task needs a particular way of looking. Thank you for your time.",
  },
  excluded: {
    title: "Your participation has ended",
    body: "Some of the items were checks with a known answer, and too many of yours did not match it, so the study stops here for you. Your answers are kept for the research team. Thank you for your time.",
  },
  timedOut: {
    title: "The time for this study is over",
    body: "The study has a time limit, and it has run out for you. The answers you gave are saved. Thank you for your time.",
  },
  RETURNED: {
    title: "Your participation has ended",
    body: "The research team has marked your participation as ended (for example, because the study was returned on the recruitment platform). The answers you gave are saved.",
  },
};

/** For participants who failed the practice (screening), were excluded, timed out, were returned or withdrew. */
export default async function EndedPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const user = await requirePageRole(`/s/${slug}/ended`);
  const [p, study] = await Promise.all([orPageError(getParticipation(slug, user.id)), orPageError(getMemberStudy(slug, user.id))]);
  if (p.status !== "EXCLUDED" && p.status !== "TIMED_OUT" && p.status !== "RETURNED") redirect(`/s/${slug}`);
  const ending = p.withdrawn ? null : endingOf(p);
  const text = p.withdrawn
    ? {
        title: "You have withdrawn from this study",
        body: "Your answers and everything recorded while you worked on them were deleted. Thank you for your time.",
      }
    : texts[ending ?? "RETURNED"];
  const completion = ending ? endingCompletion(study.endings, ending) : null;
  const withCode = completion !== null && (completion.code !== null || completion.redirectUrl !== null);
  const contact = contactOf(study);
  return (
    <div className="mx-auto max-w-xl py-10">
      <Card className="px-8 py-8 text-center">
        <div aria-hidden className="mx-auto mb-3 grid h-12 w-12 place-items-center rounded-full bg-slate-100 text-2xl text-slate-600">
          ■
        </div>
        <h1
          className="text-2xl font-semibold tracking-tight"
          data-testid="ended-title"
          data-status={p.status}
          data-ending={ending ?? (p.withdrawn ? "withdrawn" : "returned")}
        >
          {text.title}
        </h1>
        <p className="mt-2 text-sm text-slate-600">{text.body}</p>
        {p.statusReason && !p.withdrawn ? <p className="mt-3 text-xs text-slate-500">Reason recorded: {p.statusReason}</p> : null}
        {withCode ? (
          <Completion code={completion.code} redirectUrl={completion.redirectUrl} label="Your code for the recruitment platform:" />
        ) : (
          <p className="mt-4 text-sm text-slate-600">
            If you came from a recruitment platform such as Prolific, please go back there and follow its instructions.
          </p>
        )}
        {/* whom to write to, named: the study's contact, else the platform's messages */}
        <p className="mt-3 text-sm text-slate-600" data-testid="ended-contact">
          {p.withdrawn ? "Questions about the study? Please " : "If you think this is a mistake, please "}
          <TeamContact contact={contact} studyTitle={study.title} />.
        </p>
        <div className="mt-6">
          <Link href="/studies" className="text-sm text-brand-700 hover:underline">
            Back to my studies
          </Link>
        </div>
      </Card>
    </div>
  );
}
