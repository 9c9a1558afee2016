import "server-only";
import { AppError } from "@/lib/errors";
import { taskItemOf } from "@/lib/annotate/assignment-view";
import { getTaskModule, isTaskKind, kindSettings } from "@/lib/tasks";
import { tutorialPagesOf } from "@/lib/studies/settings";
import type { Json } from "@/lib/tasks/types";
import type { TutorialPage } from "@/lib/validations/study-settings";
import { countItemsAndPractice, findItemInParticipantOrder } from "@/lib/repos/items";
import { findStudyForPreview } from "@/lib/repos/studies";

/**
 * A study as a participant would meet it, for its researchers to look at before anyone joins:
 * the instructions, the consent text, the tutorial pages and the items in a participant's view.
 * Read only: no membership, assignment, event or response is made, so the preview takes no place
 * and leaves the study's figures alone. Each item is the kind's publicView, the same function
 * that builds what a participant's browser receives (lib/annotate/assignment-view.ts): the answer
 * key never leaves the server. Items come practice first, then the rest in import order (the
 * order in which a participant meets practice items; the main queue's order is per person).
 */

export interface StudyPreview {
  slug: string;
  title: string;
  instructions: string;
  consentMarkdown: string;
  consentVersion: number;
  tutorialPages: TutorialPage[];
  confidenceScale: "LIKERT_5" | "PERCENT";
  idleCapSeconds: number;
  itemTimeLimitSeconds: number | null;
  items: { total: number; practice: number };
  /** the item at `index` (0-based), null when the study has none there */
  item: {
    index: number;
    externalId: string;
    kind: string;
    role: "practice" | "gold" | "ordinary";
    view: Json | null;
    problem: string | null;
    /** the kind plays step by step against the server (TaskModule.interactive): the preview cannot play it, nothing being stored */
    interactive: boolean;
  } | null;
}

export async function getStudyPreview(slug: string, index: number): Promise<StudyPreview> {
  const study = await findStudyForPreview(slug);
  if (!study) throw new AppError("NOT_FOUND", `No study with the slug "${slug}"`);
  const { total, practice } = await countItemsAndPractice(study.id);
  const at = Math.min(Math.max(0, Math.floor(index)), Math.max(0, total - 1));
  const row = total === 0 ? null : await findItemInParticipantOrder(study.id, at);
  let item: StudyPreview["item"] = null;
  if (row) {
    let view: Json | null = null;
    let problem: string | null = null;
    let interactive = false;
    if (!isTaskKind(row.kind)) problem = `No task kind "${row.kind}" is registered`;
    else {
      try {
        const kindModule = getTaskModule(row.kind);
        interactive = Boolean(kindModule.interactive);
        view = kindModule.publicView(taskItemOf(row), kindSettings(study.taskSettings, row.kind));
      } catch (error) {
        problem = `The item cannot be shown: ${(error as Error).message}`;
      }
    }
    item = {
      index: at,
      externalId: row.externalId,
      kind: row.kind,
      role: row.practice ? "practice" : row.gold ? "gold" : "ordinary",
      view,
      problem,
      interactive,
    };
  }
  return {
    slug: study.slug,
    title: study.title,
    instructions: study.instructions,
    consentMarkdown: study.consentMarkdown.trim(),
    consentVersion: study.consentVersion,
    tutorialPages: tutorialPagesOf(study.tutorialPages),
    confidenceScale: study.confidenceScale,
    idleCapSeconds: study.idleCapSeconds,
    itemTimeLimitSeconds: study.itemTimeLimitSeconds,
    items: { total, practice },
    item,
  };
}
