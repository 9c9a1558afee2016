import type { Metadata } from "next";
import Link from "next/link";
import { requirePageRole } from "@/lib/auth/session";
import { listMemberStudies } from "@/lib/annotate/studies";
import { PageHeader } from "@/components/ui/page-header";
import { Card } from "@/components/ui/card";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { ProgressBar } from "@/components/annotate/progress-bar";

export const metadata: Metadata = { title: "My studies" };

export default async function MyStudiesPage() {
  const user = await requirePageRole("/studies");
  const studies = await listMemberStudies(user.id);
  return (
    <div className="mx-auto max-w-4xl py-4">
      <PageHeader
        title="My studies"
        description="Studies you take part in. Your work is saved as you go: you can stop at any time and continue later, on any device."
      />
      {studies.length === 0 ? (
        <EmptyState title="No studies yet" description="When a research team adds you to a study, it appears here." />
      ) : (
        <ul className="space-y-3">
          {studies.map((study) => {
            const { practice, main, finished } = study.progress;
            const started = practice.done + main.done > 0 || study.progress.open > 0;
            return (
              <li key={study.slug}>
                <Card className="flex flex-wrap items-center gap-4 px-5 py-4">
                  <div className="min-w-0 flex-1">
                    {/* long titles wrap: the start of a title is often the same across a lab's studies */}
                    <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
                      <Link href={`/s/${study.slug}`} className="min-w-0 break-words text-base font-semibold text-slate-900 hover:text-brand-700">
                        {study.title}
                      </Link>
                      {study.participantStatus === "EXCLUDED" || study.participantStatus === "TIMED_OUT" || study.participantStatus === "RETURNED" ? (
                        <Badge>ended</Badge>
                      ) : study.status === "CLOSED" ? (
                        <Badge>closed</Badge>
                      ) : finished ? (
                        <Badge tone="green">finished</Badge>
                      ) : study.status === "PAUSED" ? (
                        <Badge tone="amber">paused</Badge>
                      ) : started ? (
                        <Badge tone="blue">in progress</Badge>
                      ) : (
                        <Badge tone="violet">new</Badge>
                      )}
                    </div>
                    <div className="mt-2 flex items-center gap-3 text-sm text-slate-600">
                      <ProgressBar done={main.done} total={main.total} />
                      <span className="tabular-nums">
                        {main.done} of {main.total} items
                      </span>
                      {practice.total > 0 ? (
                        <span className="tabular-nums text-slate-500">
                          · practice {practice.done} of {practice.total}
                        </span>
                      ) : null}
                    </div>
                  </div>
                  <Link
                    href={`/s/${study.slug}`}
                    className="inline-flex h-9 items-center rounded-md bg-brand-600 px-4 text-sm font-medium text-white hover:bg-brand-700"
                  >
                    {finished ? "View" : started ? "Continue" : "Open"}
                  </Link>
                </Card>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
