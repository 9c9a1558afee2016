import type { Metadata } from "next";
import { requirePageRole } from "@/lib/auth/session";
import { orPageError } from "@/lib/annotate/page-access";
import { getReviewResults } from "@/lib/review/results";
import { isReviewerOf } from "@/lib/review/studies";
import { reviewResultsQuerySchema } from "@/lib/validations/review";
import {
  AffectedStudiesCard,
  AxesCard,
  ByTagCard,
  ContestedQueue,
  ItemsCard,
  ResultsCounts,
  ResultsHeader,
  ReviewersCard,
} from "@/components/review/results-sections";

export const metadata: Metadata = { title: "Review results" };

export default async function ReviewResultsPage({
  params,
  searchParams,
}: {
  params: Promise<{ slug: string }>;
  searchParams: Promise<Record<string, string | undefined>>;
}) {
  const { slug } = await params;
  const user = await requirePageRole(`/review/${slug}/results`, "ADMIN", "RESEARCHER");
  const parsed = reviewResultsQuerySchema.safeParse(await searchParams);
  const query = parsed.success ? parsed.data : { outcome: "all" as const, page: 1 };
  const results = await orPageError(getReviewResults(slug, query));
  const isReviewer = await isReviewerOf(results.study.id, user.id);

  return (
    <div className="space-y-5">
      <ResultsHeader results={results} slug={slug} isReviewer={isReviewer} />
      <ResultsCounts results={results} />
      <AxesCard results={results} />
      <ContestedQueue results={results} slug={slug} />
      <ItemsCard results={results} slug={slug} query={query} />
      <ByTagCard results={results} />
      <div className="grid gap-5 lg:grid-cols-2">
        <AffectedStudiesCard results={results} />
        <ReviewersCard results={results} />
      </div>
    </div>
  );
}
