import type { Metadata } from "next";
import Link from "next/link";
import ReactMarkdown from "react-markdown";
import { requirePageRole } from "@/lib/session";
import { getMemberStudy } from "@/lib/annotate/studies";
import { orPageError } from "@/lib/annotate/page-access";
import { progressFor } from "@/lib/assignment";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { buttonClass } from "@/components/ui/button";
import { ProgressBar } from "@/components/annotate/progress-bar";

export const metadata: Metadata = { title: "Study" };

export default async function StudyHomePage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const user = await requirePageRole(`/s/${slug}`);
  const study = await orPageError(getMemberStudy(slug, user.id));
  const progress = await progressFor(study.id, user.id);
  const started = progress.practice.done + progress.main.done > 0 || progress.open > 0;
  const open = study.status === "OPEN";
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
              Practice: <span className="tabular-nums">{progress.practice.done} of {progress.practice.total}</span>
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
            {progress.finished ? (
              <Link href={`/s/${slug}/done`} className={buttonClass("primary", "md", "w-full")}>
                Finished: see your code
              </Link>
            ) : open ? (
              <Link href={`/s/${slug}/work`} className={buttonClass("primary", "md", "w-full")}>
                {started ? "Continue where you left off" : progress.practice.total > 0 ? "Start with practice" : "Start"}
              </Link>
            ) : (
              <p className="text-sm text-slate-600">This study is {study.status === "CLOSED" ? "closed" : "not open yet"}.</p>
            )}
          </div>
          <p className="mt-3 text-xs text-slate-500">Everything is saved as you go. You can stop at any time and continue later, on this or another device.</p>
        </Card>
      </aside>
    </div>
  );
}
