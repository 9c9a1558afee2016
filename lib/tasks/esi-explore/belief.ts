/**
 * The annotator's belief while exploring an ESI-Bench item: "my current answer" and confidence,
 * always on screen. Every change is a `belief_changed` trajectory event carrying the whole belief
 * (the answer so far, the confidence on the study's scale) and the step at which it was made; the
 * store's answer is this draft, replayed from those events (lib/tasks/item-state.ts), and
 * `play_step` events move its step on. Pure; used in the browser and on the server (metrics).
 */

export type EsiDraftChoice = string | Record<string, string> | null;

export interface EsiDraft {
  draft: "esi";
  /** the answer so far: an option, a map of the parts answered so far, or null */
  choice: EsiDraftChoice;
  /** the last acknowledged play step (0 before the first action) */
  step: number;
}

export function emptyEsiDraft(): EsiDraft {
  return { draft: "esi", choice: null, step: 0 };
}

export function isEsiDraft(value: unknown): value is EsiDraft {
  return value !== null && typeof value === "object" && (value as { draft?: unknown }).draft === "esi";
}

function isChoice(value: unknown): value is EsiDraftChoice {
  if (value === null || typeof value === "string") return true;
  return typeof value === "object" && !Array.isArray(value) && Object.values(value as object).every((part) => typeof part === "string");
}

function field(payload: unknown, name: string): unknown {
  return payload !== null && typeof payload === "object" ? (payload as Record<string, unknown>)[name] : undefined;
}

/**
 * The draft and confidence after one event, or null when the event is not an ESI event (the
 * caller's reducer handles it). `belief_changed` sets both; `play_step` moves the step.
 */
export function applyEsiEvent(
  draft: EsiDraft,
  confidence: number | null,
  event: { type: string; payload: unknown },
): { answer: EsiDraft; confidence: number | null } | null {
  if (event.type === "belief_changed") {
    const choice = field(event.payload, "choice");
    const value = field(event.payload, "confidence");
    const step = field(event.payload, "step");
    if (!isChoice(choice)) return { answer: draft, confidence };
    return {
      answer: { ...draft, choice, step: Number.isInteger(step) ? Math.max(draft.step, step as number) : draft.step },
      confidence: typeof value === "number" ? value : value === null ? null : confidence,
    };
  }
  if (event.type === "play_step") {
    const seq = field(event.payload, "seq");
    return Number.isInteger(seq) ? { answer: { ...draft, step: Math.max(draft.step, seq as number) }, confidence } : { answer: draft, confidence };
  }
  return null;
}

/** The options of an item's view: a list, or a map of parts to lists. */
export type EsiOptions = string[] | Record<string, string[]>;

/** The answer to submit from a draft, or null while a part is unanswered. */
export function esiAnswerOf(draft: unknown, options: EsiOptions | undefined): { choice: string | Record<string, string> } | null {
  if (!isEsiDraft(draft) || draft.choice === null) return null;
  if (!options || Array.isArray(options)) return typeof draft.choice === "string" ? { choice: draft.choice } : null;
  if (typeof draft.choice === "string") return null;
  const parts = Object.keys(options);
  if (!parts.every((part) => typeof (draft.choice as Record<string, string>)[part] === "string")) return null;
  return { choice: Object.fromEntries(parts.map((part) => [part, (draft.choice as Record<string, string>)[part]])) };
}

/** What is still missing before submitting, in a few words ("" when nothing). */
export function esiMissing(draft: unknown, options: EsiOptions | undefined): string {
  if (!isEsiDraft(draft) || draft.choice === null) return "Choose your answer";
  if (!options || Array.isArray(options)) return "";
  const missing = Object.keys(options).filter((part) => typeof draft.choice !== "object" || draft.choice === null || typeof draft.choice[part] !== "string");
  return missing.length === 0 ? "" : `Answer part ${missing.join(", ")}`;
}

/** A belief's choice as one comparable text ("Yes", "A=left; C=right"; null when none). */
export function choiceKey(choice: unknown): string | null {
  if (typeof choice === "string") return choice;
  if (choice !== null && typeof choice === "object" && !Array.isArray(choice)) {
    const entries = Object.entries(choice as Record<string, unknown>).filter(([, v]) => typeof v === "string");
    if (entries.length === 0) return null;
    return entries
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([part, value]) => `${part}=${String(value)}`)
      .join("; ");
  }
  return null;
}
