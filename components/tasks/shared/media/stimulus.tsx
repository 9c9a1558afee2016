"use client";

import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from "react";
import { useAnnotationStore } from "@/components/annotate/annotation-store-provider";
import { Lightbox } from "@/components/tasks/shared/lightbox";
import { ZoomableImage } from "@/components/tasks/shared/panel";
import { hasClip, MediaPlayer } from "@/components/tasks/shared/media/player";
import type { ClockState } from "@/components/tasks/shared/media/clock";
import { pairSides, type MediaEventInput, type PlaybackMode } from "@/lib/tasks/shared/media/events";
import type { Media } from "@/lib/tasks/shared/media/schema";

/**
 * The stimulus of a generic item (lib/tasks/shared/media/schema.ts): its text, its images (each
 * opens large in the lightbox, as in the seed kinds) and its clip in the player
 * (components/tasks/shared/media/player.tsx); and SyncedPair, two stimuli side by side (stacked
 * below 640 px) whose clips play on one clock, their sides randomised per person (pairSides,
 * seeded from the assignment) and logged as `media_sides`.
 *
 * Both render the lightbox for their images unless `lightbox={false}` (a kind with images of its
 * own renders one <Lightbox /> for all). Playback rules: pass the study's mode and, for "hide",
 * the kind's usePlaybackGate() (the kind shows its question when gate.questionShown).
 */

export interface PlaybackGate {
  mode: PlaybackMode;
  /** the question may show: always, except in "hide" mode until the person shows it */
  questionShown: boolean;
  /** "hide" mode, once the question shows */
  videoHidden: boolean;
  reveal(state: ClockState, via: "click" | "keyboard" | "touch" | "auto"): void;
}

const gateKey = (assignmentId: string) => `yardstick:media-hidden:${assignmentId}`;

function readFlag(assignmentId: string): boolean {
  try {
    return window.sessionStorage.getItem(gateKey(assignmentId)) === "1";
  } catch {
    return false; // storage unavailable: an answer still implies it
  }
}

function subscribeStorage(onChange: () => void): () => void {
  window.addEventListener("storage", onChange);
  return () => window.removeEventListener("storage", onChange);
}

/**
 * The "hide" rule's state: the question stays hidden until the person shows it, which hides the
 * video for good (recorded `media_hidden`; remembered in this tab, and implied by any answer).
 */
export function usePlaybackGate(mode: PlaybackMode): PlaybackGate {
  const assignmentId = useAnnotationStore((s) => s.assignmentId);
  const answered = useAnnotationStore((s) => s.answer !== null || s.submitted || s.readOnly);
  const dispatch = useAnnotationStore((s) => s.dispatch);
  const [revealed, setRevealed] = useState(false);
  const remembered = useSyncExternalStore(
    subscribeStorage,
    () => readFlag(assignmentId),
    () => false,
  );
  const reveal = useCallback(
    (state: ClockState, via: "click" | "keyboard" | "touch" | "auto") => {
      const event: MediaEventInput = { type: "media_hidden", payload: { time: state.time, duration: state.duration, via } };
      dispatch(event as unknown as Parameters<typeof dispatch>[0]);
      setRevealed(true);
      try {
        window.sessionStorage.setItem(gateKey(assignmentId), "1");
      } catch {
        // storage unavailable
      }
    },
    [dispatch, assignmentId],
  );
  const hidden = mode === "hide" && (revealed || remembered || answered);
  return { mode, questionShown: mode !== "hide" || hidden, videoHidden: hidden, reveal };
}

function StimulusText({ text }: { text: string }) {
  return (
    <p className="whitespace-pre-wrap rounded-md bg-slate-50 px-3 py-2 text-sm leading-relaxed text-slate-900" data-testid="stimulus-text">
      {text}
    </p>
  );
}

function StimulusImages({ images, label }: { images: string[]; label: string }) {
  const zoom = useAnnotationStore((s) => s.zoom);
  return (
    <div className={`grid gap-2 ${images.length === 1 ? "grid-cols-1" : "grid-cols-2 sm:grid-cols-3"}`} data-testid="stimulus-images">
      {images.map((image, index) => (
        <ZoomableImage
          key={`${image}-${index}`}
          src={image}
          alt={`${label} image ${index + 1}`}
          onZoom={() => zoom(image, "observation", index)}
          className="aspect-video w-full"
        />
      ))}
    </div>
  );
}

function HiddenNote({ pair = false }: { pair?: boolean }) {
  return (
    <p className="rounded-md border border-dashed border-slate-300 bg-slate-50 px-3 py-6 text-center text-sm text-slate-600" data-testid="media-hidden">
      {pair ? "The videos are hidden now" : "The video is hidden now"}: answer from memory.
    </p>
  );
}

/** One item's stimulus: text, images, and its clip in the player. */
export function Stimulus({
  media,
  mode = "free",
  gate,
  label = "Stimulus",
  lightbox = true,
}: {
  media: Media | undefined;
  mode?: PlaybackMode;
  gate?: PlaybackGate;
  label?: string;
  lightbox?: boolean;
}) {
  if (!media) return null;
  const hidden = gate?.videoHidden ?? false;
  return (
    <div className="flex flex-col gap-2" data-testid="stimulus">
      {media.text ? <StimulusText text={media.text} /> : null}
      {hasClip(media) ? hidden ? <HiddenNote /> : <MediaPlayer clips={[{ media, label: `${label} video` }]} mode={mode} onReveal={gate?.reveal} /> : null}
      {media.images && media.images.length > 0 ? <StimulusImages images={media.images} label={label} /> : null}
      {lightbox ? <Lightbox describe={() => `${label} image`} /> : null}
    </div>
  );
}

/** The screen order of a pair's sides for this person (the assignment seeds it); logs `media_sides` once per page view. */
export function usePairSides(): { left: "a" | "b"; right: "a" | "b" } {
  const assignmentId = useAnnotationStore((s) => s.assignmentId);
  const dispatch = useAnnotationStore((s) => s.dispatch);
  const sides = pairSides(assignmentId);
  const logged = useRef<string | null>(null);
  useEffect(() => {
    if (logged.current === assignmentId) return;
    logged.current = assignmentId;
    const event: MediaEventInput = { type: "media_sides", payload: sides };
    dispatch(event as unknown as Parameters<typeof dispatch>[0]);
  }, [assignmentId, dispatch, sides]);
  return sides;
}

/** Screen names of the pair's places: "Video 1" (left, or top on a phone) and "Video 2". */
export const PAIR_PLACE_NAMES = ["1", "2"] as const;

/**
 * Two stimuli side by side (stacked below 640 px), their clips on one clock with one set of
 * controls (side "both"). `sides` is usePairSides() of the kind's view (it needs the order for its
 * answer buttons too): sides.left is shown first, as "1".
 */
export function SyncedPair({
  a,
  b,
  sides,
  mode = "free",
  gate,
  lightbox = true,
}: {
  a: Media;
  b: Media;
  sides: { left: "a" | "b"; right: "a" | "b" };
  mode?: PlaybackMode;
  gate?: PlaybackGate;
  lightbox?: boolean;
}) {
  const bySide = { a, b };
  const order = [sides.left, sides.right] as const;
  const hidden = gate?.videoHidden ?? false;
  const clips = order.filter((side) => hasClip(bySide[side]));
  return (
    <div className="flex flex-col gap-2" data-testid="synced-pair" data-left={sides.left}>
      {order.some((side) => bySide[side].text) ? (
        <div className="grid grid-cols-1 gap-2 sm:grid-cols-2">
          {order.map((side, index) =>
            bySide[side].text ? (
              <div key={side}>
                <h3 className="mb-1 text-sm font-semibold text-slate-800">{`Video ${PAIR_PLACE_NAMES[index]}`}</h3>
                <StimulusText text={bySide[side].text!} />
              </div>
            ) : (
              <div key={side} />
            ),
          )}
        </div>
      ) : null}
      {clips.length > 0 ? (
        hidden ? (
          <HiddenNote pair />
        ) : (
          <MediaPlayer
            clips={clips.map((side) => ({ media: bySide[side], label: `Video ${PAIR_PLACE_NAMES[order.indexOf(side)]}` }))}
            sides={clips}
            mode={mode}
            onReveal={gate?.reveal}
            pairLayout
          />
        )
      ) : null}
      {order.some((side) => bySide[side].images?.length) ? (
        <div className="grid grid-cols-1 gap-2 sm:grid-cols-2">
          {order.map((side, index) => (
            <div key={side} className="min-w-0">
              <h3 className="mb-1 text-sm font-semibold text-slate-800">
                {clips.length > 0 ? `Images ${PAIR_PLACE_NAMES[index]}` : `Option ${PAIR_PLACE_NAMES[index]}`}
              </h3>
              {bySide[side].images?.length ? <StimulusImages images={bySide[side].images!} label={`Option ${PAIR_PLACE_NAMES[index]}`} /> : null}
            </div>
          ))}
        </div>
      ) : null}
      {lightbox ? <Lightbox describe={() => "Image"} /> : null}
    </div>
  );
}
