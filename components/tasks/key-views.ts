import type { ComponentType } from "react";
import type { ItemPageView } from "@/components/tasks/shared/types";
import { orderingItemPage } from "@/components/tasks/shared/enact/item-page";
import { EnactForwardKey } from "@/components/tasks/enact-forward/key-view";
import { EnactInverseKey } from "@/components/tasks/enact-inverse/key-view";
import { RatingKey } from "@/components/tasks/rating/key-view";
import { PairwiseKey } from "@/components/tasks/pairwise/key-view";
import { ChoiceKey } from "@/components/tasks/choice/key-view";
import { NumericKey } from "@/components/tasks/numeric/key-view";
import { FreeTextKey } from "@/components/tasks/free-text/key-view";

/**
 * Task kind -> how reviewers see its answer key (the kind's reviewView), for the kinds that have a
 * renderer of their own (components/tasks/<kind>/key-view.tsx); the others get the generic JSON
 * view (components/review/key-view.tsx). A registry of its own beside components/tasks/registry.ts
 * because that one is "use client": a server page (the review item page) could not call a lookup
 * from it, while this module holds nothing but components that render on either side.
 */
export const keyViews: Readonly<Record<string, ComponentType<{ view: unknown }>>> = {
  "enact-forward": EnactForwardKey,
  "enact-inverse": EnactInverseKey,
  rating: RatingKey,
  pairwise: PairwiseKey,
  choice: ChoiceKey,
  numeric: NumericKey,
  "free-text": FreeTextKey,
};

/** The kind's own key renderer, or null for the generic view. */
export function keyViewOf(kind: string): ComponentType<{ view: unknown }> | null {
  return Object.hasOwn(keyViews, kind) ? keyViews[kind] : null;
}

/** The kinds whose item page differs from the generic one (ItemPageView). */
export const itemPageViews: Readonly<Record<string, ItemPageView>> = {
  "enact-forward": orderingItemPage,
  "enact-inverse": orderingItemPage,
};

/** The kind's item page parts ({} for the generic page). */
export function itemPageViewOf(kind: string): ItemPageView {
  return Object.hasOwn(itemPageViews, kind) ? itemPageViews[kind] : {};
}
