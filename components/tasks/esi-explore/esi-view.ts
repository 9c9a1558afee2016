import { choiceKey, emptyEsiDraft, esiAnswerOf, esiMissing, isEsiDraft, type EsiDraft, type EsiOptions } from "@/lib/tasks/esi-explore/belief";

/**
 * What the ESI player gets (no server code): the item's public view (lib/tasks/esi-explore/index.ts
 * publicView), the play view of the current step (EsiView there), and the registry's answer
 * helpers. On the replay page the view also carries the recorded steps (`replay`), so the
 * read-only player can show the frame of each step.
 */

export interface EsiItemView {
  question: string;
  options: EsiOptions;
  parts?: Record<string, string>;
  initialImage: string;
  initialObjects: string[];
  maxSteps: number;
  /** replay only: the recorded steps by seq (seq 0 the start) with what the annotator was shown */
  replay?: Array<{ seq: number; view: EsiPlayView; action?: unknown; valid?: boolean; message?: string | null }>;
}

export type EsiPlayView =
  | { mode: "active"; source: "graph" | "simulator"; image: string; objects: string[]; holding: string[]; step: number; maxSteps: number; note?: string }
  | { mode: "passive-single" | "passive-multi" | "passive-gt"; images: string[]; note?: string };

export function esiInitialAnswer(): EsiDraft {
  return emptyEsiDraft();
}

export function esiAnswerFor(answer: unknown, view: unknown) {
  return esiAnswerOf(answer, (view as EsiItemView).options);
}

export function esiMissingFor(answer: unknown, view: unknown): string {
  return esiMissing(answer, (view as EsiItemView).options);
}

/** A submitted answer (or the key) as a draft to show it. */
export function esiDisplayAnswer(answer: unknown): EsiDraft {
  if (isEsiDraft(answer)) return answer;
  const choice = answer !== null && typeof answer === "object" ? (answer as { choice?: unknown }).choice : undefined;
  return {
    draft: "esi",
    choice: typeof choice === "string" || (choice !== null && typeof choice === "object") ? (choice as EsiDraft["choice"]) : null,
    step: 0,
  };
}

export function describeEsiAnswer(answer: unknown): string {
  const choice = isEsiDraft(answer) ? answer.choice : answer !== null && typeof answer === "object" ? (answer as { choice?: unknown }).choice : answer;
  return choiceKey(choice) ?? "no answer";
}

export const CONDITION_TITLES: Record<EsiPlayView["mode"], string> = {
  active: "Explore",
  "passive-single": "One view",
  "passive-multi": "Views along a walk",
  "passive-gt": "Reference views",
};
