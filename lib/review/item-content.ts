import "server-only";
import { AppError } from "@/lib/errors";
import { findReviewedItemByContent, findReviewedItemById, listStudiesWithContent } from "@/lib/repos/review";
import { isTaskKind, getTaskModule } from "@/lib/tasks";
import type { Json, TaskItem } from "@/lib/tasks/types";
import type { ReviewItemView } from "@/lib/review/types";

/**
 * The content of a review item for people who may see its key (reviewers, researchers): the
 * kind's publicView (what annotators see) and reviewView (the key rendered for reviewers). A kind
 * that Yardstick does not know yet is shown generically: its public part and its key as stored.
 */

const assetUrlPattern = /^\/api\/assets\/([0-9a-f]{64})$/;

/**
 * Image URLs as served to reviewers: /api/review/assets/<hash>, which lets reviewers of any role
 * load the images of the items they review (the annotators' route serves annotators only the
 * images of their own studies).
 */
export function reviewAssetUrls(value: Json): Json {
  if (typeof value === "string") {
    const match = assetUrlPattern.exec(value);
    return match ? `/api/review/assets/${match[1]}` : value;
  }
  if (Array.isArray(value)) return value.map(reviewAssetUrls);
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, reviewAssetUrls(inner)]));
  return value;
}

function tagsOf(tags: unknown): Record<string, string | number | boolean> {
  return (tags && typeof tags === "object" && !Array.isArray(tags) ? tags : {}) as Record<string, string | number | boolean>;
}

/** The review item's stored item: its own copy, or another study's copy of the same content when that one was deleted. */
export async function loadReviewedItem(reviewItem: { id: string; itemId: string | null; externalId: string; contentHash: string }) {
  const item =
    (reviewItem.itemId ? await findReviewedItemById(reviewItem.itemId) : null) ??
    (await findReviewedItemByContent(reviewItem.externalId, reviewItem.contentHash));
  if (!item) throw new AppError("NOT_FOUND", `The item ${reviewItem.externalId} of review item ${reviewItem.id} is in no study any more`);
  return item;
}

export type ReviewItemContent = Omit<ReviewItemView, "assignmentId" | "axes">;

export async function reviewItemContent(reviewItem: {
  id: string;
  itemId: string | null;
  externalId: string;
  contentHash: string;
}): Promise<ReviewItemContent> {
  const item = await loadReviewedItem(reviewItem);
  const usedIn = await listStudiesWithContent(item.externalId, item.contentHash);
  const taskItem: TaskItem = { id: item.externalId, kind: item.kind, public: item.public, key: item.key, tags: tagsOf(item.tags) };
  const known = isTaskKind(item.kind);
  const taskModule = known ? getTaskModule(item.kind) : null;
  return {
    reviewItemId: reviewItem.id,
    item: {
      externalId: item.externalId,
      kind: item.kind,
      kindTitle: taskModule?.title ?? null,
      benchmark: taskModule?.benchmark ?? null,
      tags: tagsOf(item.tags),
      practice: item.practice,
      gold: item.gold,
      batch: item.batch.fileName,
      contentHash: item.contentHash,
      usedIn,
    },
    publicView: reviewAssetUrls(taskModule ? taskModule.publicView(taskItem) : (item.public as Json)),
    reviewView: reviewAssetUrls(taskModule ? taskModule.reviewView(taskItem) : (item.key as Json)),
  };
}
