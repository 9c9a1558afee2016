import type { Metadata } from "next";
import Link from "next/link";
import { requirePageRole } from "@/lib/auth/session";
import { listBatchesForReview, listReviewerCandidates } from "@/lib/review/studies";
import { PageHeader } from "@/components/ui/page-header";
import { Card, CardBody } from "@/components/ui/card";
import { ReviewCreateForm } from "@/components/review/review-create-form";

export const metadata: Metadata = { title: "New review study" };

export default async function NewReviewStudyPage() {
  await requirePageRole("/review/new", "ADMIN", "RESEARCHER");
  const [batches, reviewers] = await Promise.all([listBatchesForReview(), listReviewerCandidates()]);
  return (
    <div className="mx-auto max-w-5xl">
      <PageHeader
        eyebrow={
          <Link href="/review" className="hover:text-slate-800">
            ← Review
          </Link>
        }
        title="New review study"
        description="Reviewers vet the items of the batches you pick, before (or while) studies use them. Items that fail are excluded from new assignments in every study that holds them; their past responses stay, flagged."
      />
      <Card>
        <CardBody>
          <ReviewCreateForm batches={batches} reviewers={reviewers} />
        </CardBody>
      </Card>
    </div>
  );
}
