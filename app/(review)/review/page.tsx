import type { Metadata } from "next";
import { requirePageRole } from "@/lib/auth/session";
import { listMyReviewStudies, listReviewStudies } from "@/lib/review/studies";
import { PageHeader } from "@/components/ui/page-header";
import { ButtonLink } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { ReviewStudiesTable } from "@/components/review/review-studies-table";

export const metadata: Metadata = { title: "Review" };

export default async function ReviewHomePage() {
  const user = await requirePageRole("/review");
  const staff = user.role === "ADMIN" || user.role === "RESEARCHER";
  const [mine, all] = await Promise.all([listMyReviewStudies(user.id), staff ? listReviewStudies() : Promise.resolve([])]);
  return (
    <div className="mx-auto max-w-6xl space-y-6 py-3">
      <PageHeader
        title="Review"
        description="Item verification: reviewers vet benchmark items before studies use them. Items that fail are kept out of new assignments in every study that holds them."
        actions={staff ? <ButtonLink href="/review/new">New review study</ButtonLink> : null}
      />

      <Card>
        <CardHeader
          title="Your review queues"
          description="Review studies you are a reviewer of. You see each item with its answer key; judge every axis, one key per verdict."
        />
        {mine.length === 0 ? (
          <div className="p-5">
            <EmptyState
              title="You review nothing yet"
              description={
                staff
                  ? "Create a review study and pick yourself as a reviewer, or ask a colleague to add you."
                  : "When a research team adds you as a reviewer, the review appears here."
              }
            />
          </div>
        ) : (
          <ul className="divide-y divide-slate-100">
            {mine.map((study) => (
              <li key={study.slug} className="flex flex-wrap items-center gap-4 px-5 py-3">
                <div className="min-w-0 flex-1">
                  <div className="flex items-center gap-2">
                    <span className="truncate font-semibold text-slate-900">{study.title}</span>
                    {study.status === "CLOSED" ? (
                      <Badge>closed</Badge>
                    ) : study.available === 0 ? (
                      <Badge tone="green">done</Badge>
                    ) : (
                      <Badge tone="blue">open</Badge>
                    )}
                  </div>
                  <p className="text-sm text-slate-600">
                    You reviewed <span className="tabular-nums">{study.done}</span> of {study._count.items} items ·{" "}
                    <span className="tabular-nums">{study.available}</span> still need you · {study.reviewersPerItem} reviewers per item
                  </p>
                </div>
                {study.status === "OPEN" && study.available > 0 ? (
                  <ButtonLink href={`/review/${study.slug}`}>{study.done > 0 ? "Continue" : "Start"}</ButtonLink>
                ) : staff ? (
                  <ButtonLink href={`/review/${study.slug}/results`} variant="secondary">
                    Results
                  </ButtonLink>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </Card>

      {staff ? (
        <Card>
          <CardHeader title="Review studies" description="Every review study, with its items by outcome." />
          {all.length === 0 ? (
            <div className="p-5">
              <EmptyState
                title="No review studies yet"
                description="A review study covers one or more imported batches; pick the axes, the reviewers and the rule that keeps an item."
                action={<ButtonLink href="/review/new">Create a review study</ButtonLink>}
              />
            </div>
          ) : (
            <ReviewStudiesTable studies={all} />
          )}
        </Card>
      ) : null}
    </div>
  );
}
