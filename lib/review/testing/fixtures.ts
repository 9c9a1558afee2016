import { db } from "@/lib/db";
import { createReviewStudy } from "@/lib/review/studies";
import { nextReviewFor, submitReview } from "@/lib/review/work";
import { createEnactItems, createStudy, createUser } from "@/tests/db-helpers";
import type { ReviewStudyCreateInput } from "@/lib/validations/review";

/**
 * Integration-test fixtures for item verification: the same ENACT batch imported into two
 * studies (same external ids and content hashes), and reviewers working through a review study.
 */

let counter = 0;

export async function twoStudiesSharingABatch(options: { count: number; overlap?: number; kind?: "enact-forward" | "enact-inverse" }) {
  counter += 1;
  const prefix = `shared${counter}x${Date.now().toString(36)}`;
  const studyA = await createStudy({ overlap: options.overlap ?? 1 });
  const studyB = await createStudy({ overlap: options.overlap ?? 1 });
  const itemsA = await createEnactItems(studyA.id, { count: options.count, prefix, kind: options.kind });
  const itemsB = await createEnactItems(studyB.id, { count: options.count, prefix, kind: options.kind });
  return { studyA, studyB, itemsA, itemsB, batchA: itemsA[0].batchId, batchB: itemsB[0].batchId };
}

export async function createReviewers(count: number, role: "ADMIN" | "RESEARCHER" | "ANNOTATOR" = "RESEARCHER") {
  return Promise.all(Array.from({ length: count }, () => createUser(role)));
}

export async function newReviewStudy(input: Partial<ReviewStudyCreateInput> & Pick<ReviewStudyCreateInput, "batchIds" | "reviewerIds">, createdById: string) {
  counter += 1;
  return createReviewStudy(
    {
      title: `Review ${counter}`,
      slug: `review-${counter}-${Date.now().toString(36)}`,
      instructions: "",
      axes: [
        { key: "correctness", label: "Correctness", description: "The reference answer is right." },
        { key: "answerability", label: "Answerability", description: "" },
        { key: "non_triviality", label: "Non-triviality", description: "" },
      ],
      reviewersPerItem: 3,
      keepRule: "MAJORITY_ALL_AXES",
      tieRule: "CONTESTED",
      ...input,
    },
    createdById,
  );
}

export type Plan = (externalId: string, reviewer: number) => Partial<Record<string, boolean>>;

/**
 * Every reviewer works through the review study until nothing is left, judging each item by
 * `plan(externalId, reviewerIndex)` (axis key -> pass); fails get the reason "fails <axis>".
 * Returns the external ids each reviewer saw, in order.
 */
export async function reviewEverything(slug: string, reviewerIds: readonly string[], plan: Plan): Promise<string[][]> {
  const seen: string[][] = reviewerIds.map(() => []);
  for (const [index, userId] of reviewerIds.entries()) {
    let next = await nextReviewFor(slug, userId);
    for (let guard = 0; guard < 500 && next.status === "item"; guard++) {
      const { view } = next;
      seen[index].push(view.item.externalId);
      const verdicts = plan(view.item.externalId, index);
      const result = await submitReview(view.assignmentId, userId, {
        verdicts: view.axes.map((axis) => ({
          axis: axis.key,
          pass: verdicts[axis.key] ?? true,
          reason: verdicts[axis.key] === false ? `fails ${axis.key}` : undefined,
        })),
      });
      next = result.next;
    }
  }
  return seen;
}

export async function reviewItemOf(slug: string, externalId: string) {
  return db.reviewItem.findFirstOrThrow({
    where: { reviewStudy: { slug }, externalId },
    select: { id: true, outcome: true, ruleOutcome: true, split: true, reviews: true },
  });
}
