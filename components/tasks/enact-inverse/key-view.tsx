import { letterOf } from "@/components/tasks/shared/types";
import { ZoomImage } from "@/components/review/zoom-image";
import { ChangeChips } from "@/components/tasks/shared/enact/change-chips";
import { SemanticNote } from "@/components/tasks/shared/enact/semantic-note";

/**
 * ENACT inverse's answer key for reviewers, from the kind's reviewView (lib/tasks/enact-inverse/index.ts):
 * the correct action for each transition, with what the action describes and what the transition
 * changes when the key has symbolic states.
 */

interface InverseTransition {
  step: number;
  before: string | null;
  after: string | null;
  candidateIndex: number;
  action: string | null;
  actionChanges: string[] | null;
  stepChanges: string[] | null;
}

export function EnactInverseKey({ view }: { view: unknown }) {
  const key = view as { semanticAvailable: boolean; transitions: InverseTransition[] };
  return (
    <div className="space-y-2" data-testid="key-enact-inverse">
      <SemanticNote available={key.semanticAvailable} />
      <ol className="space-y-1.5" aria-label="The correct action for each transition">
        {key.transitions.map((t) => (
          <li
            key={t.step}
            className="space-y-1 rounded-md border border-emerald-200 bg-white p-1.5"
            data-key-step={t.step + 1}
            data-key-candidate={letterOf(t.candidateIndex)}
          >
            <div className="flex items-center gap-1.5">
              <span className="grid h-6 w-6 shrink-0 place-items-center rounded-full bg-slate-800 text-xs font-semibold text-white" aria-hidden>
                {t.step + 1}
              </span>
              {t.before ? <ZoomImage src={t.before} alt={`Observation ${t.step + 1}`} className="h-12 w-12 shrink-0" /> : null}
              <span aria-hidden className="text-slate-400">
                →
              </span>
              {t.after ? <ZoomImage src={t.after} alt={`Observation ${t.step + 2}`} className="h-12 w-12 shrink-0" /> : null}
              <p className="min-w-0 flex-1 text-[13px] leading-snug text-slate-800">
                <span className="mr-1 rounded bg-emerald-700 px-1 text-[11px] font-bold text-white">{letterOf(t.candidateIndex)}</span>
                {t.action}
              </p>
            </div>
            {t.actionChanges || t.stepChanges ? (
              <dl className="grid grid-cols-[7.5rem_minmax(0,1fr)] gap-x-2 gap-y-0.5 pl-7 text-xs">
                {t.actionChanges ? (
                  <>
                    <dt className="text-slate-500">action describes</dt>
                    <dd>
                      <ChangeChips changes={t.actionChanges} />
                    </dd>
                  </>
                ) : null}
                {t.stepChanges ? (
                  <>
                    <dt className="text-slate-500">transition changes</dt>
                    <dd>
                      <ChangeChips changes={t.stepChanges} />
                    </dd>
                  </>
                ) : null}
              </dl>
            ) : null}
          </li>
        ))}
      </ol>
    </div>
  );
}
