import { emptyOrderingDraft, isOrderingDraft, orderingAnswerOf, orderingDraftOf, orderOf } from "@/lib/tasks/shared/enact/ordering-draft";
import { letterOf, type SlotNote, type TaskUi } from "@/components/tasks/shared/types";
import { OrderLines } from "@/components/tasks/shared/enact/order-lines";

/**
 * What the client registry knows of the ordering kinds (ENACT forward and inverse) beside their
 * components: the draft is the slots (lib/tasks/shared/enact/ordering-draft.ts), the answer
 * `{ order }` once every slot is filled, recorded in the `submitted` event as `order`; practice
 * feedback and the replay mark each step against the key's order.
 */
export function orderingUi(
  slotCount: (view: unknown) => number,
): Pick<TaskUi, "initialAnswer" | "answerOf" | "missing" | "displayAnswer" | "submittedFields" | "feedback" | "keyNotes" | "ReplayAnswer"> {
  return {
    initialAnswer: (view) => emptyOrderingDraft(slotCount(view)),
    answerOf: (draft) => orderingAnswerOf(draft),
    missing: (draft) => {
      const open = isOrderingDraft(draft) ? draft.slots.filter((value) => value === null).length : 0;
      return `${open} step${open === 1 ? "" : "s"} to fill`;
    },
    displayAnswer: (answer) => orderingDraftOf(answer),
    submittedFields: (answer) => ({ order: orderOf(answer) ?? [] }),
    feedback: ({ answer, key, correct }) => {
      const own = orderOf(answer) ?? [];
      // accepted answers may differ from the key's order (ENACT's semantic match): show theirs then
      const shown = correct ? own : (orderOf(key) ?? []);
      const notes: Array<SlotNote | null> = shown.map((candidate, step) =>
        correct || own[step] === candidate ? { tone: "good", text: "✓ your answer" } : { tone: "bad", text: `✗ you had ${letterOf(own[step] as number)}` },
      );
      return {
        shown: { order: shown },
        notes,
        message: correct ? "Your order is right." : "The right order is shown below; the steps marked in red were different in your answer.",
      };
    },
    keyNotes: (answer, key) => {
      const order = orderOf(answer);
      const keyOrder = orderOf(key);
      if (!order || !keyOrder) return undefined;
      return order.map((candidate, step) =>
        candidate === keyOrder[step] ? { tone: "good", text: "✓ as in the key" } : { tone: "bad", text: `key: ${letterOf(keyOrder[step])}` },
      );
    },
    ReplayAnswer: OrderLines,
  };
}
