"use client";

import { useRef, useState } from "react";
import { useAnnotationStore } from "@/components/annotate/annotation-store-provider";

const likertLabels = ["Guessing", "Unsure", "Fairly sure", "Sure", "Certain"];

/**
 * Confidence on the study's scale, with nothing pre-selected: five buttons (LIKERT_5) or a 0-100
 * slider whose thumb appears only after the first touch (PERCENT). A slider drag is one
 * confidence change (committed on release), not one per pixel.
 */
export function ConfidenceInput() {
  const scale = useAnnotationStore((s) => s.confidenceScale);
  return scale === "LIKERT_5" ? <LikertConfidence /> : <PercentConfidence />;
}

function LikertConfidence() {
  const value = useAnnotationStore((s) => s.confidence);
  const setConfidence = useAnnotationStore((s) => s.setConfidence);
  const disabled = useAnnotationStore((s) => s.submitted || s.readOnly);
  return (
    <div role="radiogroup" aria-label="Confidence (1 = guessing, 5 = certain)" className="flex items-center gap-1">
      {likertLabels.map((label, i) => {
        const n = i + 1;
        const checked = value === n;
        return (
          <button
            key={n}
            type="button"
            role="radio"
            aria-checked={checked}
            aria-label={`${n}: ${label}`}
            title={label}
            disabled={disabled}
            onClick={() => setConfidence(n)}
            className={`flex h-11 min-w-9 flex-col lg:h-9 items-center justify-center rounded-md border px-2 text-sm font-semibold leading-none transition focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-brand-500 ${
              checked ? "border-brand-600 bg-brand-600 text-white" : "border-slate-300 bg-white text-slate-700 hover:border-brand-400 hover:bg-brand-50"
            }`}
          >
            {n}
            <span className={`mt-0.5 text-[9px] font-normal ${checked ? "text-white/90" : "text-slate-500"}`}>{label}</span>
          </button>
        );
      })}
    </div>
  );
}

function PercentConfidence() {
  const value = useAnnotationStore((s) => s.confidence);
  const setConfidence = useAnnotationStore((s) => s.setConfidence);
  const disabled = useAnnotationStore((s) => s.submitted || s.readOnly);
  const [draft, setDraft] = useState<number | null>(null);
  // the latest slider position; pointerup can come before React re-renders with the new draft
  const latest = useRef<number | null>(null);
  const shown = draft ?? value;
  const commit = () => {
    if (latest.current !== null) setConfidence(latest.current);
    latest.current = null;
    setDraft(null);
  };
  return (
    <div className="flex items-center gap-2">
      <span className="text-xs text-slate-500">0%</span>
      <span className="relative flex h-10 w-36 items-center lg:h-6 rounded focus-within:ring-2 focus-within:ring-brand-400">
        {/* no value yet: a bare track without a thumb; the invisible slider on top takes the first touch */}
        {shown === null ? <span aria-hidden className="absolute inset-x-0 h-1.5 rounded-full bg-slate-300" /> : null}
        <input
          type="range"
          min={0}
          max={100}
          step={1}
          aria-label="Confidence in percent"
          aria-valuetext={shown === null ? "not set" : `${shown}%`}
          disabled={disabled}
          value={shown ?? 50}
          data-empty={shown === null ? "true" : "false"}
          onChange={(event) => {
            latest.current = Number(event.target.value);
            setDraft(latest.current);
          }}
          onPointerUp={commit}
          onKeyUp={commit}
          onBlur={commit}
          className={`relative h-6 w-full cursor-pointer accent-brand-600 ${shown === null ? "opacity-0" : ""}`}
        />
      </span>
      <span className="text-xs text-slate-500">100%</span>
      <span className={`w-14 text-sm font-semibold tabular-nums ${shown === null ? "text-slate-400" : "text-slate-900"}`} data-testid="confidence-value">
        {shown === null ? "not set" : `${shown}%`}
      </span>
    </div>
  );
}
