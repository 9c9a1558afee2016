import type { Metadata } from "next";
import Link from "next/link";
import { requirePageRole } from "@/lib/session";
import { getMemberStudy } from "@/lib/annotate/studies";
import { orPageError } from "@/lib/annotate/page-access";
import { progressFor } from "@/lib/assignment";
import { Card } from "@/components/ui/card";
import { buttonClass } from "@/components/ui/button";

export const metadata: Metadata = { title: "Done" };

export default async function DonePage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const user = await requirePageRole(`/s/${slug}/done`);
  const study = await orPageError(getMemberStudy(slug, user.id));
  const progress = await progressFor(study.id, user.id);
  return (
    <div className="mx-auto max-w-xl py-10">
      <Card className="px-8 py-8 text-center">
        {progress.finished ? (
          <>
            <div aria-hidden className="mx-auto mb-3 grid h-12 w-12 place-items-center rounded-full bg-emerald-100 text-2xl text-emerald-700">
              ✓
            </div>
            <h1 className="text-2xl font-semibold tracking-tight">Thank you: you are done</h1>
            <p className="mt-2 text-sm text-slate-600">
              You answered {progress.main.done} item{progress.main.done === 1 ? "" : "s"} of “{study.title}”.
            </p>
            {study.completionCode ? (
              <div className="mt-6">
                <p className="text-sm text-slate-600">Your completion code:</p>
                <p className="mt-1 select-all rounded-md border border-slate-300 bg-slate-50 px-4 py-3 font-mono text-xl font-semibold tracking-wider" data-testid="completion-code">
                  {study.completionCode}
                </p>
                <p className="mt-1 text-xs text-slate-500">Copy it into the recruitment platform to confirm that you finished.</p>
              </div>
            ) : null}
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
    </div>
  );
}
