"use client";

import type { EnactInversePublic } from "@/lib/tasks/enact-inverse";
import { useAnnotationStore } from "@/components/annotate/annotation-store-provider";
import { TaskDndProvider } from "@/components/tasks/shared/enact/dnd";
import { Lightbox } from "@/components/tasks/shared/lightbox";
import { CandidateTile, DragPreviewLayer, FilledCount, LibraryDropZone, OrderingHint, SlotBox } from "@/components/tasks/shared/enact/ordering";
import { TaskPanel, ZoomableImage } from "@/components/tasks/shared/panel";
import { letterOf, type TaskUiProps } from "@/components/tasks/shared/types";
import { stepSquareCss } from "@/components/tasks/shared/enact/layout";

/**
 * ENACT inverse world modeling, as in the paper's interface: the ordered observations as
 * consecutive Current → Next pairs, one slot per transition, and the shuffled action library.
 */
export default function EnactInverseTask({ view, slotNotes }: TaskUiProps) {
  const item = view as EnactInversePublic;
  return (
    <TaskDndProvider>
      <InverseBoard item={item} slotNotes={slotNotes} />
    </TaskDndProvider>
  );
}

function InverseBoard({ item, slotNotes }: { item: EnactInversePublic; slotNotes?: TaskUiProps["slotNotes"] }) {
  const zoom = useAnnotationStore((s) => s.zoom);
  // from 7 steps on, rows keep their height and the list scrolls inside its panel
  const dense = item.candidates.length >= 7;
  const pinned = item.candidates.length <= 4;
  // on a phone the two pictures share a row and the step's slot goes under them
  const square = stepSquareCss(item.candidates.length, 34);
  const describe = (image: string) => {
    const index = item.observations.indexOf(image);
    return index === 0 ? "Observation 1 (start)" : index > 0 ? `Observation ${index + 1}` : "Image";
  };
  const actionCard = (candidate: number, clamp: boolean) => (
    <p
      className={`h-full overflow-hidden px-2 pb-1 pl-8 pt-1 text-left text-xs leading-snug text-slate-800 ${clamp ? "line-clamp-5" : ""}`}
      title={item.candidates[candidate]}
    >
      {item.candidates[candidate]}
    </p>
  );
  return (
    // phones and narrow windows (below lg): one column, the candidate actions first (kept on screen
    // while the transitions scroll under them when they are few); the page scrolls instead of the panels
    <div className="flex flex-col gap-2 lg:grid lg:h-full lg:min-h-0 lg:grid-cols-[minmax(0,1fr)_minmax(260px,380px)] xl:grid-cols-[minmax(0,1fr)_minmax(300px,440px)] xl:gap-3">
      <TaskPanel title="Which action explains each change?" aside={<FilledCount />} label="Transitions and steps" className="max-lg:order-2">
        <ol className={`flex min-h-0 flex-col gap-1 ${dense ? "" : "h-full"}`}>
          {item.candidates.map((_, step) => (
            <li
              key={step}
              className={`relative flex flex-wrap items-stretch gap-2 rounded-md border border-slate-200 bg-slate-50/60 p-1 lg:flex-nowrap ${dense ? "shrink-0" : "flex-auto"}`}
            >
              <span className="grid h-6 w-6 shrink-0 self-start place-items-center rounded-full bg-slate-800 text-xs font-semibold text-white" aria-hidden>
                {step + 1}
              </span>
              <ZoomableImage
                src={item.observations[step]}
                alt={`Observation ${step + 1}`}
                onZoom={() => zoom(item.observations[step], "observation", step)}
                className="shrink-0 self-center"
                style={{ width: square, height: square }}
              />
              <span aria-hidden className="self-center text-slate-400">
                →
              </span>
              <ZoomableImage
                src={item.observations[step + 1]}
                alt={`Observation ${step + 2}`}
                onZoom={() => zoom(item.observations[step + 1], "observation", step + 1)}
                className="shrink-0 self-center"
                style={{ width: square, height: square }}
              />
              <SlotBox
                slot={step}
                label={`Action from observation ${step + 1} to ${step + 2}`}
                note={slotNotes?.[step]}
                emptyText="drop the action that leads from the left image to the right one"
                className="min-w-0 flex-1 max-lg:min-h-16 max-lg:basis-full"
                style={{ minHeight: `min(${square}, 96px)` }}
                renderFilled={(candidate) => actionCard(candidate, true)}
              />
            </li>
          ))}
        </ol>
      </TaskPanel>

      <TaskPanel
        title="Candidate actions (shuffled)"
        label="Candidate actions"
        // below lg a few actions stay on screen while the steps scroll under them; a longer list
        // would fill the screen (or hide its last actions in an inner scroll), so it stays in the page
        className={`max-lg:order-1 ${pinned ? "max-lg:sticky max-lg:top-[57px] max-lg:z-20 max-lg:max-h-[45dvh] max-lg:shadow-md" : ""}`}
        bodyClassName="flex flex-col gap-2"
      >
        <OrderingHint what="an action" />
        <LibraryDropZone className="flex flex-col gap-1.5">
          {item.candidates.map((_, candidate) => (
            <CandidateTile key={candidate} candidate={candidate} label={`Candidate action ${letterOf(candidate)}`} className="min-h-11 lg:min-h-9">
              {actionCard(candidate, false)}
            </CandidateTile>
          ))}
        </LibraryDropZone>
      </TaskPanel>

      <Lightbox describe={describe} />
      <DragPreviewLayer className="w-72" render={(candidate) => actionCard(candidate, true)} />
    </div>
  );
}
