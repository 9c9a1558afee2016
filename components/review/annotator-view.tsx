"use client";

import type { Json } from "@/lib/tasks/types";
import { idleCapMs } from "@/lib/timing/active-time";
import { AnnotationStoreProvider } from "@/components/annotate/annotation-store-provider";
import { getTaskUi, storeInitOf } from "@/components/tasks/registry";
import { JsonView } from "@/components/review/json-view";

/**
 * The item as the annotator sees it: the kind's own task component (components/tasks/registry.ts)
 * in a read-only annotation store, with its slots empty, as the research replay shows it. Kinds
 * without an interface yet show their public view generically.
 */
export function AnnotatorView({ kind, view }: { kind: string; view: Json }) {
  const ui = getTaskUi(kind);
  if (!ui) {
    return (
      <div className="h-full overflow-auto rounded-lg border border-slate-200 bg-white p-3" data-testid="annotator-view-generic">
        <p className="mb-2 text-xs text-slate-500">
          No annotator interface is registered for “{kind}” yet. What annotators would receive (the kind’s public view):
        </p>
        <JsonView value={view} />
      </div>
    );
  }
  const Task = ui.Component;
  return (
    <AnnotationStoreProvider
      init={{ assignmentId: "review", kind, ...storeInitOf(ui, view), confidenceScale: "LIKERT_5", idleCapMs: idleCapMs(60), readOnly: true }}
    >
      <div className="h-full min-h-0" data-testid="annotator-view" data-kind={kind}>
        <Task view={view} />
      </div>
    </AnnotationStoreProvider>
  );
}
