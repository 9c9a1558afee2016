"use client";

import type { GradeView } from "@/lib/tasks/free-text-grade";
import { GRADE_RUBRIC, GRADES, type Grade } from "@/lib/tasks/shared/llm-match/rubric";
import { useAnnotationStore, useAnnotationStoreApi } from "@/components/annotate/annotation-store-provider";
import { TaskPanel } from "@/components/tasks/shared/panel";
import { useTaskKeys, viaOf } from "@/components/tasks/shared/task-keys";
import type { TaskUiProps } from "@/components/tasks/shared/types";

/**
 * `free-text-grade`: one answer to grade, with its question and the reference answer(s), and the
 * LLM judge's rubric 1-5 (the same words the judge is given). Keys 1-5, a click or a tap choose the
 * grade (`answer_graded`). The judge's own grade is not part of the item.
 */
export default function FreeTextGradeTask({ view }: TaskUiProps) {
  const item = view as GradeView;
  const grade = useAnnotationStore((s) => (s.answer as { grade?: number } | null)?.grade ?? null);
  const locked = useAnnotationStore((s) => s.readOnly || s.submitted);
  const api = useAnnotationStoreApi();
  const choose = (next: Grade, via: "click" | "keyboard" | "touch") => {
    const state = api.getState();
    if (state.readOnly || state.submitted) return;
    const previous = (state.answer as { grade?: number } | null)?.grade ?? null;
    if (previous === next) return;
    state.dispatch({ type: "answer_graded", payload: { grade: next, previous, via } });
  };
  useTaskKeys((key) => {
    const n = Number(key);
    if (!/^[1-5]$/.test(key)) return false;
    choose(n as Grade, "keyboard");
    return true;
  });

  return (
    <div
      className="flex flex-col gap-2 lg:grid lg:h-full lg:min-h-0 lg:grid-cols-[minmax(0,1fr)_minmax(300px,420px)] xl:gap-3"
      data-testid="free-text-grade-task"
    >
      <TaskPanel title="Question and reference" label="Question and reference" bodyClassName="flex flex-col gap-3">
        <p className="text-base font-medium text-slate-900">{item.question}</p>
        <div>
          <h3 className="text-xs font-semibold uppercase tracking-wide text-slate-500">
            {item.references.length === 1 ? "Reference answer" : "Reference answers (each is acceptable)"}
          </h3>
          <ul className="mt-1 list-disc pl-5 text-sm text-slate-800">
            {item.references.map((reference, i) => (
              <li key={i}>{reference}</li>
            ))}
          </ul>
        </div>
        <div>
          <h3 className="text-xs font-semibold uppercase tracking-wide text-slate-500">Answer to grade</h3>
          <p className="mt-1 whitespace-pre-wrap rounded-md border border-amber-200 bg-amber-50 px-2 py-1.5 text-sm text-amber-950" data-testid="grade-answer">
            {item.answer === "" ? <em>(empty answer)</em> : item.answer}
          </p>
        </div>
      </TaskPanel>
      <section aria-label="Grade" className="rounded-lg border border-slate-200 bg-white p-2 shadow-sm">
        <h2 className="mb-1.5 text-sm font-semibold text-slate-800">
          How well does the answer match a reference? <span className="font-normal text-slate-500 pointer-coarse:hidden">(click, or press 1–5)</span>
        </h2>
        <div role="radiogroup" aria-label="Grade" className="flex flex-col gap-1.5">
          {[...GRADES].reverse().map((value) => {
            const selected = grade === value;
            return (
              <button
                key={value}
                type="button"
                role="radio"
                aria-checked={selected}
                aria-label={`Grade ${value}: ${GRADE_RUBRIC[value]}`}
                data-grade={value}
                disabled={locked && !selected}
                onPointerUp={(event) => {
                  if (event.pointerType === "touch") choose(value, "touch");
                }}
                onClick={(event) => choose(value, viaOf(event))}
                className={`flex min-h-12 items-center gap-2 rounded-md border-2 px-2 py-1.5 text-left outline-none transition focus-visible:ring-2 focus-visible:ring-brand-500 ${
                  selected ? "border-brand-600 bg-brand-600 text-white" : "border-slate-300 bg-white text-slate-800 hover:border-brand-400"
                }`}
              >
                <kbd className={`rounded border px-1.5 font-mono text-sm font-bold ${selected ? "border-white/50" : "border-slate-300 bg-slate-50"}`}>
                  {value}
                </kbd>
                <span className="text-sm">{GRADE_RUBRIC[value]}</span>
              </button>
            );
          })}
        </div>
      </section>
    </div>
  );
}
