"use client";

import type { EnactForwardPublic } from "@/lib/tasks/enact-forward";
import { useAnnotationStore } from "@/components/annotate/annotation-store-provider";
import { TaskDndProvider, usePointerKind } from "@/components/tasks/shared/enact/dnd";
import { Lightbox } from "@/components/tasks/shared/lightbox";
import { CandidateTile, DragPreviewLayer, FilledCount, LibraryDropZone, OrderingHint, SlotBox } from "@/components/tasks/shared/enact/ordering";
import { TaskPanel, ZoomableImage } from "@/components/tasks/shared/panel";
import { letterOf, type TaskUiProps } from "@/components/tasks/shared/types";
import { stepSquareCss } from "@/components/tasks/shared/enact/layout";
import { bakedLabelCoverStyle } from "@/components/tasks/enact-forward/baked-label";
import { useBakedLabels } from "@/components/tasks/enact-forward/use-baked-labels";

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
  // the release's own captions ("Next State 2") number the images in file order: covered by the letter
  const labelled = useBakedLabels(item.candidates);
  const cover = (candidate: number, large = false) =>
    labelled.has(item.candidates[candidate]) ? (
      <span
        aria-hidden
        data-testid="label-cover"
        className={`pointer-events-none absolute flex items-center rounded-sm bg-slate-800 px-1 font-semibold text-white ${large ? "text-lg" : "text-[10px]"}`}
        style={bakedLabelCoverStyle}
      >
        {large ? `Candidate ${letterOf(candidate)}` : letterOf(candidate)}
      </span>
    ) : null;
  const thumb = (candidate: number) => (
    <>
      {/* eslint-disable-next-line @next/next/no-img-element -- assets are served by hash with long caching */}
      <img src={item.candidates[candidate]} alt="" draggable={false} className="h-full w-full object-contain" />
      {cover(candidate)}
    </>
  );
  return (
    // phones and narrow windows (below lg): one column in page order (current state, the candidates
    // kept on screen while scrolling, the steps), and the page scrolls instead of the panels
    <div className="flex flex-col gap-2 lg:grid lg:h-full lg:min-h-0 lg:grid-cols-[minmax(0,1fr)_minmax(300px,370px)] xl:grid-cols-[minmax(0,1fr)_minmax(340px,460px)] xl:gap-3">
      <TaskPanel title="Actions in order → next state" aside={<FilledCount />} label="Actions and steps" className="max-lg:order-3">
        <ol className={`flex min-h-0 flex-col gap-1 ${dense ? "" : "h-full"}`}>
          {item.actions.map((action, step) => (
            <li
              key={step}
              className={`relative flex items-center gap-2 rounded-md border border-slate-200 bg-slate-50/60 p-1 ${dense ? "shrink-0" : "flex-auto"}`}
            >
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

      <div className="contents lg:flex lg:min-h-0 lg:flex-col lg:gap-2 xl:gap-3">
        <TaskPanel title="Current state" label="Current state" className="shrink-0 max-lg:order-1" bodyClassName="flex items-start gap-3">
          <ZoomableImage
            src={item.initialImage}
            alt="Current state"
            onZoom={() => zoom(item.initialImage, "initial", 0)}
            className="h-[96px] w-[96px] shrink-0 lg:h-[120px] lg:w-[120px] xl:h-[150px] xl:w-[150px]"
          />
          <p className="text-xs leading-snug text-slate-600">
            Start here. Apply the actions in order: each step shows the state right after its action. Click an image to see it large.
            {labelled.size > 0 ? (
              <span className="mt-1 block" data-testid="label-note">
                The letters A–{letterOf(item.candidates.length - 1)} name the candidates; the dark band covers the benchmark&apos;s own caption, which numbers
                the images in file order and is no hint.
              </span>
            ) : null}
          </p>
        </TaskPanel>
        <TaskPanel
          title="Candidate images (shuffled)"
          label="Candidate images"
          className="min-h-0 flex-1 max-lg:sticky max-lg:top-[57px] max-lg:z-20 max-lg:order-2 max-lg:shadow-md"
          bodyClassName="flex flex-col gap-2"
        >
          <OrderingHint what="an image" onZoom={(candidate) => zoom(item.candidates[candidate], "candidate", candidate)} />
          <LibraryDropZone
            className={`grid content-start gap-2 ${item.candidates.length <= 3 ? "grid-cols-3" : item.candidates.length <= 8 ? "grid-cols-4" : "grid-cols-5 lg:grid-cols-4"}`}
          >
            {item.candidates.map((src, candidate) => (
              <CandidateTile
                key={candidate}
                candidate={candidate}
                label={`Candidate image ${letterOf(candidate)}`}
                onActivate={() => zoom(src, "candidate", candidate)}
                letterAt="bottom"
                className="aspect-square overflow-hidden"
              >
                {thumb(candidate)}
              </CandidateTile>
            ))}
          </LibraryDropZone>
        </TaskPanel>
      </div>

      <Lightbox describe={describe} overlay={(image) => (item.candidates.includes(image) ? cover(item.candidates.indexOf(image), true) : null)} />
      <DragPreviewLayer render={(candidate) => <div className="aspect-square">{thumb(candidate)}</div>} />
    </div>
  );
}

/**
 * The "open large" corner of a filled step (mouse and keyboard). Not on touch screens: there the
 * browser would move a tap on the step to this button; a tap on the candidate in the library and
 * "Show large" in the hint line do it instead.
 */
function ZoomButton({ onZoom }: { onZoom: () => void }) {
  const pointer = usePointerKind();
  if (pointer === "touch") return null;
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
