"use client";

import { idleCapMs } from "@/lib/timing/active-time";
import { AnnotationStoreProvider } from "@/components/annotate/annotation-store-provider";
import { getTaskUi, storeInitOf, TaskView } from "@/components/tasks/registry";
import type { SlotNote } from "@/components/tasks/shared/types";

/** For researchers: the item as annotators see it; with `keyAnswer`, the key laid out in the task (the kind's displayAnswer). */
export function ItemKeyView({ kind, view, keyAnswer, notes }: { kind: string; view: unknown; keyAnswer: unknown; notes?: Array<SlotNote | null> }) {
  const ui = getTaskUi(kind);
  if (!ui) return <p className="text-sm text-red-700">No interface is registered for the kind “{kind}”.</p>;
  return (
    <AnnotationStoreProvider
      init={{
        assignmentId: "review",
        kind,
        ...storeInitOf(ui, view),
        ...(keyAnswer !== null && ui.displayAnswer ? { initialAnswer: ui.displayAnswer(keyAnswer, view) } : {}),
        confidenceScale: "LIKERT_5",
        idleCapMs: idleCapMs(60),
        readOnly: true,
      }}
    >
      <div className="h-[540px] min-h-0">
        <TaskView ui={ui} view={view} slotNotes={notes} />
      </div>
    </AnnotationStoreProvider>
  );
}
