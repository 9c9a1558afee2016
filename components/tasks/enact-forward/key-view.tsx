import { letterOf } from "@/components/tasks/shared/types";
import { ZoomImage } from "@/components/review/zoom-image";
import { ChangeChips, FactChips } from "@/components/tasks/shared/enact/change-chips";
import { SemanticNote } from "@/components/tasks/shared/enact/semantic-note";

/**
 * ENACT forward's answer key for reviewers, from the kind's reviewView (lib/tasks/enact-forward/index.ts):
 * the correct order laid out step by step, as the annotator's slots would hold it, with what each
 * step visibly changes when the key has symbolic states.
 */

interface ForwardStep {
  step: number;
  action: string | null;
  candidateIndex: number;
  image: string | null;
  facts: string[] | null;
  visibleChange: string[] | null;
}

interface ForwardReview {
  semanticAvailable: boolean;
  initialImage: string;
  initialFacts: string[] | null;
  hidden: string[];
  steps: ForwardStep[];
}

export function EnactForwardKey({ view }: { view: unknown }) {
  const key = view as ForwardReview;
  return (
    <div className="space-y-2" data-testid="key-enact-forward">
      <SemanticNote available={key.semanticAvailable} />
      <div className="flex items-start gap-2 rounded-md border border-slate-200 bg-slate-50/60 p-1.5">
        <ZoomImage src={key.initialImage} alt="Current state (start)" className="h-14 w-14 shrink-0" />
        <div className="min-w-0 text-xs">
          <div className="font-medium text-slate-700">Start</div>
          {key.initialFacts ? <FactChips facts={key.initialFacts} /> : null}
        </div>
      </div>
      <ol className="space-y-1.5" aria-label="The correct order">
        {key.steps.map((step) => (
          <li
            key={step.step}
            className="flex items-start gap-2 rounded-md border border-emerald-200 bg-white p-1.5"
            data-key-step={step.step + 1}
            data-key-candidate={letterOf(step.candidateIndex)}
          >
            <span className="mt-0.5 grid h-6 w-6 shrink-0 place-items-center rounded-full bg-slate-800 text-xs font-semibold text-white" aria-hidden>
              {step.step + 1}
            </span>
            <div className="min-w-0 flex-1 space-y-1">
              <p className="text-[13px] leading-snug text-slate-800">
                <span className="sr-only">Action {step.step + 1}: </span>
                {step.action}
              </p>
              <ChangeChips changes={step.visibleChange} />
            </div>
            {step.image ? (
              <div className="relative shrink-0">
                <ZoomImage src={step.image} alt={`Step ${step.step + 1}: candidate image ${letterOf(step.candidateIndex)}`} className="h-16 w-16" />
                <span className="pointer-events-none absolute bottom-0.5 left-0.5 rounded bg-emerald-700 px-1 text-[11px] font-bold text-white">
                  {letterOf(step.candidateIndex)}
                </span>
              </div>
            ) : null}
          </li>
        ))}
      </ol>
      {key.hidden.length > 0 ? (
        <div className="text-xs text-slate-500">
          <span className="font-medium">Hidden facts</span> (not visible, left out of the changes): <FactChips facts={key.hidden} />
        </div>
      ) : null}
    </div>
  );
}
