import type { Json } from "@/lib/tasks/types";

/**
 * What the reviewer's browser receives (types only: browser code may import this file). Unlike
 * the annotator's AssignmentView, it holds the answer key (the kind's reviewView): only
 * reviewers of the review study get it (lib/review/work.ts checks).
 */

export interface ReviewAxisView {
  key: string;
  label: string;
  description: string;
}

export interface ReviewItemView {
  assignmentId: string;
  reviewItemId: string;
  item: {
    externalId: string;
    kind: string;
    /** the kind's title, e.g. "ENACT forward world modeling"; null for a kind Yardstick does not know */
    kindTitle: string | null;
    benchmark: string | null;
    tags: Record<string, string | number | boolean>;
    practice: boolean;
    gold: boolean;
    batch: string | null;
    contentHash: string;
    /** studies that hold this content (the outcome applies to all of them) */
    usedIn: Array<{ slug: string; title: string }>;
  };
  /** the kind's publicView(item): exactly what annotators see */
  publicView: Json;
  /** the kind's reviewView(item): the answer key rendered for reviewers; never sent to annotators */
  reviewView: Json;
  axes: ReviewAxisView[];
}

export interface ReviewProgress {
  /** reviews this reviewer submitted */
  done: number;
  /** items this reviewer holds open or could still be given */
  available: number;
}

export type ReviewNext =
  | { status: "item"; view: ReviewItemView; progress: ReviewProgress }
  | { status: "done"; progress: ReviewProgress }
  | { status: "closed"; progress: ReviewProgress };

export interface ReviewVerdictView {
  axis: string;
  pass: boolean;
  reason: string | null;
}
