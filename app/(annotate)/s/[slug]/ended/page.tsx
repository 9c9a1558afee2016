import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { requirePageRole } from "@/lib/session";
import { orPageError } from "@/lib/annotate/page-access";
import { getParticipation } from "@/lib/participants";
import { Card } from "@/components/ui/card";

export const metadata: Metadata = { title: "Participation ended" };

const texts = {
  EXCLUDED: {
    title: "Your participation has ended",
    body: "Some of the items were checks with a known answer, and too many of yours did not match it, so the study stops here for you. Your answers are kept for the research team. Thank you for your time.",
  },
  TIMED_OUT: {
    title: "The time for this study is over",
    body: "The study has a time limit, and it has run out for you. The answers you gave are saved. Thank you for your time.",
  },
  RETURNED: {
    title: "Your participation has ended",
    body: "The research team has marked your participation as ended (for example, because the study was returned on the recruitment platform). The answers you gave are saved.",
  },
} as const;

/** For participants who were excluded, timed out, returned or withdrew. */
export default async function EndedPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const user = await requirePageRole(`/s/${slug}/ended`);
  const p = await orPageError(getParticipation(slug, user.id));
  if (p.status !== "EXCLUDED" && p.status !== "TIMED_OUT" && p.status !== "RETURNED") redirect(`/s/${slug}`);
  const text = p.withdrawn
    ? { title: "You have withdrawn from this study", body: "Your answers and everything recorded while you worked on them were deleted. Thank you for your time." }
    : texts[p.status];
  return (
    <div className="mx-auto max-w-xl py-10">
      <Card className="px-8 py-8 text-center">
        <div aria-hidden className="mx-auto mb-3 grid h-12 w-12 place-items-center rounded-full bg-slate-100 text-2xl text-slate-600">
          ■
        </div>
        <h1 className="text-2xl font-semibold tracking-tight" data-testid="ended-title" data-status={p.status}>
          {text.title}
        </h1>
        <p className="mt-2 text-sm text-slate-600">{text.body}</p>
        {p.statusReason && !p.withdrawn ? <p className="mt-3 text-xs text-slate-500">Reason recorded: {p.statusReason}</p> : null}
        <p className="mt-4 text-sm text-slate-600">If you came from a recruitment platform such as Prolific, please go back there and follow its instructions; you can message the research team there if you think this is a mistake.</p>
        <div className="mt-6">
          <Link href="/studies" className="text-sm text-brand-700 hover:underline">
            Back to my studies
          </Link>
        </div>
      </Card>
    </div>
  );
}
