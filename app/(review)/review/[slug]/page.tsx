import type { Metadata } from "next";
import { requirePageRole } from "@/lib/auth/session";
import { orPageError } from "@/lib/annotate/page-access";
import { getReviewStudyBySlug } from "@/lib/review/studies";
import { nextReviewFor } from "@/lib/review/work";
import { reviewSlugSchema } from "@/lib/validations/review";
import { notFound } from "next/navigation";
import { ReviewWorkspace } from "@/components/review/review-workspace";

export const metadata: Metadata = { title: "Review items" };

/** The reviewer's page: members of the review study only (403 for anyone else, staff included). */
export default async function ReviewWorkPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  if (!reviewSlugSchema.safeParse(slug).success) notFound();
  const user = await requirePageRole(`/review/${slug}`);
  const study = await orPageError(getReviewStudyBySlug(slug));
  const initial = await orPageError(nextReviewFor(slug, user.id));
  return <ReviewWorkspace title={study.title} instructions={study.instructions} initial={initial} />;
}
