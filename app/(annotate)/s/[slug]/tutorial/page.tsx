import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { requirePageRole } from "@/lib/auth/session";
import { orPageError } from "@/lib/annotate/page-access";
import { countPracticeItems, getMemberStudy } from "@/lib/annotate/studies";
import { getParticipation } from "@/lib/participants/participants";
import { Card, CardBody } from "@/components/ui/card";
import { StudyMarkdown } from "@/components/annotate/markdown";
import { TutorialPager } from "@/components/annotate/tutorial-pager";

export const metadata: Metadata = { title: "Tutorial" };

/** The study's instructions and tutorial pages, before the practice items. */
export default async function TutorialPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const user = await requirePageRole(`/s/${slug}/tutorial`);
  const study = await orPageError(getMemberStudy(slug, user.id));
  const p = await getParticipation(slug, user.id);
  if (p.status === "EXCLUDED" || p.status === "TIMED_OUT" || p.status === "RETURNED") redirect(`/s/${slug}/ended`);
  if (p.consentNeeded) redirect(`/s/${slug}/consent`);
  const practiceItems = await countPracticeItems(study.id);
  const pages = [
    ...(study.instructions.trim() ? [{ title: "Instructions", content: <StudyMarkdown>{study.instructions}</StudyMarkdown> }] : []),
    ...p.tutorialPages.map((page) => ({ title: page.title, content: <StudyMarkdown>{page.body}</StudyMarkdown> })),
  ];
  if (pages.length === 0) redirect(`/s/${slug}`);
  const finishLabel = practiceItems > 0 ? `Start the ${practiceItems} practice item${practiceItems === 1 ? "" : "s"}` : "Start the study";
  return (
    <div className="mx-auto max-w-3xl py-4">
      <Link href={`/s/${slug}`} className="text-sm text-slate-500 hover:text-slate-800">
        ← {study.title}
      </Link>
      <Card className="mt-3">
        <CardBody className="px-6 py-5">
          <TutorialPager
            slug={slug}
            pages={pages}
            finishLabel={study.status === "PAUSED" ? "Done: the study is paused, come back later" : finishLabel}
            paused={study.status === "PAUSED"}
          />
        </CardBody>
      </Card>
      {practiceItems > 0 ? (
        <p className="mt-3 px-1 text-xs text-slate-500">The practice items come next: after each one you see the right answer, explained in the task itself.</p>
      ) : null}
    </div>
  );
}
