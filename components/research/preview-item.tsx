"use client";

import { useState } from "react";
import { idleCapMs } from "@/lib/timing/active-time";
import type { Json } from "@/lib/tasks/types";
import { AnnotationStoreProvider, useAnnotationStore } from "@/components/annotate/annotation-store-provider";
import { ConfidenceInput } from "@/components/annotate/confidence-input";
import { useSubmitReadiness } from "@/components/annotate/submit-readiness";
import { getTaskUi, storeInitOf, TaskView, type TaskUi } from "@/components/tasks/registry";
import { JsonView } from "@/components/review/json-view";
import { buttonClass } from "@/components/ui/button";

/**
 * One item of the study preview, as a participant works on it: the kind's own task component in
 * an annotation store that records into itself only (no sink, no submission handler: nothing is
 * sent, nothing is stored). Submit checks the answer is complete, as the real page does, and
 * says that it went nowhere; the right answer is not known here (the key stays on the server).
 */
export function PreviewItem({
  kind,
  view,
  confidenceScale,
  idleCapSeconds,
  nextHref,
}: {
  kind: string;
  view: Json;
  confidenceScale: "LIKERT_5" | "PERCENT";
  idleCapSeconds: number;
  nextHref: string | null;
}) {
  const ui = getTaskUi(kind);
  // a new store (empty answer) for each try
  const [attempt, setAttempt] = useState(0);
  if (!ui) {
    return (
      <div className="rounded-lg border border-slate-200 bg-white p-3" data-testid="preview-generic">
        <p className="mb-2 text-xs text-slate-500">
          No participant interface is registered for “{kind}”. What a participant&apos;s browser would receive (the kind&apos;s public view):
        </p>
        <JsonView value={view} />
      </div>
    );
  }
  return (
    <AnnotationStoreProvider
      key={attempt}
      init={{ assignmentId: "preview", kind, ...storeInitOf(ui, view), confidenceScale, idleCapMs: idleCapMs(idleCapSeconds) }}
    >
      <div className="flex min-h-[32rem] flex-col gap-2">
        <div className="min-h-0 flex-1" data-testid="task" data-kind={kind}>
          <TaskView ui={ui} view={view} />
        </div>
        <PreviewSubmitBar ui={ui} view={view} nextHref={nextHref} onAgain={() => setAttempt((n) => n + 1)} />
      </div>
    </AnnotationStoreProvider>
  );
}

function PreviewSubmitBar({ ui, view, nextHref, onAgain }: { ui: TaskUi; view: unknown; nextHref: string | null; onAgain: () => void }) {
  const submitted = useAnnotationStore((s) => s.submitted);
  const submit = useAnnotationStore((s) => s.submit);
  const { ready, missing } = useSubmitReadiness(ui, view);
  if (submitted) {
    return (
      <div
        role="status"
        data-testid="preview-submitted"
        className="flex flex-wrap items-center gap-3 rounded-lg border border-violet-200 bg-violet-50 px-3 py-2 text-sm text-violet-900"
      >
        <span>A participant&apos;s answer would be sent now. This is a preview: nothing was sent or stored.</span>
        <span className="ml-auto flex gap-2">
          <button type="button" onClick={onAgain} className={buttonClass("secondary", "sm")}>
            Try again
          </button>
          {nextHref ? (
            <a href={nextHref} className={buttonClass("primary", "sm")}>
              Next item
            </a>
          ) : null}
        </span>
      </div>
    );
  }
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-2 rounded-lg border border-slate-200 bg-white px-3 py-1.5 shadow-sm">
      {ui.confidenceInTask ? (
        <span className="ml-auto" />
      ) : (
        <>
          <span className="ml-auto hidden text-sm font-medium text-slate-700 xl:inline">Your confidence:</span>
          <span className="ml-auto xl:ml-0">
            <ConfidenceInput />
          </span>
        </>
      )}
      <span className="w-32 text-right text-xs leading-tight text-slate-500 max-lg:ml-auto" aria-live="polite">
        {missing}
      </span>
      <button type="button" onClick={() => submit()} disabled={!ready} className={buttonClass("primary", "md", "min-w-28")}>
        Submit
      </button>
    </div>
  );
}
