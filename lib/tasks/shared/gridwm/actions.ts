/** What the GridWM kinds' answer controls decide an intent on (each kind's actions.ts). */

export type ChoiceVia = "click" | "keyboard" | "touch";

/** The draft answer, and whether the item takes no more changes (submitted, or a read-only view). */
export interface AnswerContext {
  answer: unknown;
  submitted: boolean;
  readOnly: boolean;
}
