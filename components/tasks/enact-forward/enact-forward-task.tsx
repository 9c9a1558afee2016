"use client";

import type { EnactForwardPublic } from "@/lib/tasks/enact-forward";
import { useAnnotationStore } from "@/components/annotate/annotation-store-provider";
import { TaskDndProvider } from "@/components/tasks/shared/dnd";
import { Lightbox } from "@/components/tasks/shared/lightbox";
import { CandidateTile, DragPreviewLayer, FilledCount, LibraryDropZone, OrderingHint, SlotBox } from "@/components/tasks/shared/ordering";
import { TaskPanel, ZoomableImage } from "@/components/tasks/shared/panel";
import { letterOf, stepSquareCss, type TaskUiProps } from "@/components/tasks/shared/types";

/**
 * ENACT forward world modeling, as in the paper's interface: the current-state image, the ordered
 * actions, one empty "next state" step per action, and the shuffled candidate image library.
 */
export default function EnactForwardTask({ view, slotNotes }: TaskUiProps) {
  const item = view as EnactForwardPublic;
  return (
    <TaskDndProvider>
      <ForwardBoard item={item} slotNotes={slotNotes} />
    </TaskDndProvider>
  );
}

function ForwardBoard({ item, slotNotes }: { item: EnactForwardPublic; slotNotes?: TaskUiProps["slotNotes"] }) {
  const zoom = useAnnotationStore((s) => s.zoom);
  // from 7 steps on, rows keep their text's height and the list scrolls inside its panel
  const dense = item.actions.length >= 7;
  const square = stepSquareCss(item.actions.length);
  const describe = (image: string) => {
    if (image === item.initialImage) return "Current state";
    const index = item.candidates.indexOf(image);
    return index >= 0 ? `Candidate image ${letterOf(index)}` : "Image";
  };
  const thumb = (candidate: number) => (
    // eslint-disable-next-line @next/next/no-img-element -- assets are served by hash with long caching
    <img src={item.candidates[candidate]} alt="" draggable={false} className="h-full w-full object-contain" />
  );
  return (
    <div className="grid h-full min-h-0 grid-cols-[minmax(0,1fr)_minmax(300px,370px)] gap-2 xl:grid-cols-[minmax(0,1fr)_minmax(340px,460px)] xl:gap-3">
      <TaskPanel title="Actions in order → next state" aside={<FilledCount />} label="Actions and steps">
        <ol className={`flex min-h-0 flex-col gap-1 ${dense ? "" : "h-full"}`}>
          {item.actions.map((action, step) => (
            <li key={step} className={`relative flex items-center gap-2 rounded-md border border-slate-200 bg-slate-50/60 p-1 ${dense ? "shrink-0" : "flex-auto"}`}>
              <span className="grid h-6 w-6 shrink-0 self-start place-items-center rounded-full bg-slate-800 text-xs font-semibold text-white" aria-hidden>
                {step + 1}
              </span>
              <p className={`min-w-0 flex-1 self-start leading-snug text-slate-800 ${dense ? "text-[12.5px]" : "text-[13px]"}`}>
                <span className="sr-only">Action {step + 1}: </span>
                {action}
              </p>
              <span aria-hidden className="self-center text-slate-400">
                →
              </span>
              <SlotBox
                slot={step}
                label={`Next state after action ${step + 1}`}
                note={slotNotes?.[step]}
                emptyText="drop image"
                letterAt="bottom"
                className="shrink-0"
                style={{ width: square, height: square }}
                renderFilled={(candidate) => (
                  <>
                    {thumb(candidate)}
                    <ZoomButton onZoom={() => zoom(item.candidates[candidate], "slot", step)} />
                  </>
                )}
              />
            </li>
          ))}
        </ol>
      </TaskPanel>

      <div className="flex min-h-0 flex-col gap-2 xl:gap-3">
        <TaskPanel title="Current state" label="Current state" className="shrink-0" bodyClassName="flex items-start gap-3">
          <ZoomableImage src={item.initialImage} alt="Current state" onZoom={() => zoom(item.initialImage, "initial", 0)} className="h-[120px] w-[120px] shrink-0 xl:h-[150px] xl:w-[150px]" />
          <p className="text-xs leading-snug text-slate-600">
            Start here. Apply the actions in order: each step shows the state right after its action. Click an image to see it large.
          </p>
        </TaskPanel>
        <TaskPanel title="Candidate images (shuffled)" label="Candidate images" className="min-h-0 flex-1" bodyClassName="flex flex-col gap-2">
          <OrderingHint what="an image" />
          <LibraryDropZone className={`grid content-start gap-2 ${item.candidates.length <= 3 ? "grid-cols-3" : item.candidates.length <= 8 ? "grid-cols-4" : "grid-cols-5"}`}>
            {item.candidates.map((src, candidate) => (
              <CandidateTile key={candidate} candidate={candidate} label={`Candidate image ${letterOf(candidate)}`} onActivate={() => zoom(src, "candidate", candidate)} letterAt="bottom" className="aspect-square overflow-hidden">
                {thumb(candidate)}
              </CandidateTile>
            ))}
          </LibraryDropZone>
        </TaskPanel>
      </div>

      <Lightbox describe={describe} />
      <DragPreviewLayer render={(candidate) => <div className="aspect-square">{thumb(candidate)}</div>} />
    </div>
  );
}

function ZoomButton({ onZoom }: { onZoom: () => void }) {
  return (
    <button
      type="button"
      aria-label="Open large"
      title="Open large"
      onClick={(event) => {
        event.stopPropagation();
        onZoom();
      }}
      onKeyDown={(event) => event.stopPropagation()}
      className="absolute bottom-1 right-1 grid h-5 w-5 place-items-center rounded bg-slate-900/70 text-xs text-white hover:bg-slate-900"
    >
      ⤢
    </button>
  );
}
