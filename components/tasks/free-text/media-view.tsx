"use client";

import { useEffect, useState } from "react";
import type { Media } from "@/lib/tasks/shared/media/schema";
import { ZoomableImage } from "@/components/tasks/shared/panel";
import { useAnnotationStore } from "@/components/annotate/annotation-store-provider";

/**
 * A minimal stand-in for the shared stimulus player (components/tasks/shared/media, not on this
 * branch yet): the text, the images (each opens large), a video with the browser's controls
 * (ended at `cutAt`), or the frames one at a time with play / pause and a slider (← / → step while
 * the slider has focus). It records no player events; the shared player will.
 */
export function MediaView({ media }: { media: Media }) {
  const zoom = useAnnotationStore((s) => s.zoom);
  return (
    <div className="flex flex-col gap-2" data-testid="free-text-media">
      {media.text ? <p className="whitespace-pre-wrap rounded-md bg-slate-50 px-2 py-1.5 text-sm text-slate-800">{media.text}</p> : null}
      {media.images && media.images.length > 0 ? (
        <div className={`grid gap-2 ${media.images.length > 1 ? "grid-cols-2" : "grid-cols-1"}`}>
          {media.images.map((src, i) => (
            <ZoomableImage key={`${src}-${i}`} src={src} alt={`Image ${i + 1}`} onZoom={() => zoom(src, "observation", i)} className="aspect-[4/3] w-full" />
          ))}
        </div>
      ) : null}
      {media.video ? <CutVideo src={media.video} cutAt={media.cutAt} /> : null}
      {media.frames && media.frames.length > 0 ? <Frames frames={media.frames} fps={media.fps ?? 2} cutAt={media.cutAt} /> : null}
    </div>
  );
}

function CutVideo({ src, cutAt }: { src: string; cutAt?: number }) {
  return (
    <video
      src={src}
      controls
      playsInline
      preload="metadata"
      aria-label="Video"
      className="aspect-video w-full rounded-md bg-black"
      onTimeUpdate={(event) => {
        const video = event.currentTarget;
        if (cutAt !== undefined && video.currentTime >= cutAt) {
          video.pause();
          video.currentTime = cutAt;
        }
      }}
    />
  );
}

function Frames({ frames, fps, cutAt }: { frames: string[]; fps: number; cutAt?: number }) {
  const last = Math.max(0, Math.min(frames.length, cutAt === undefined ? frames.length : Math.ceil(cutAt * fps)) - 1);
  const [at, setAt] = useState(0);
  const [playing, setPlaying] = useState(false);
  // playing stops by itself at the last frame
  const running = playing && at < last;
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setAt((frame) => Math.min(last, frame + 1)), 1000 / fps);
    return () => clearInterval(timer);
  }, [running, fps, last]);
  return (
    <figure className="flex flex-col gap-1">
      {/* eslint-disable-next-line @next/next/no-img-element -- assets are served by hash with long caching */}
      <img src={frames[at]} alt={`Frame ${at + 1} of ${last + 1}`} className="aspect-video w-full rounded-md bg-black object-contain" draggable={false} />
      <figcaption className="flex items-center gap-2 text-xs text-slate-600">
        <button
          type="button"
          onClick={() => {
            if (running) return setPlaying(false);
            if (at >= last) setAt(0);
            setPlaying(true);
          }}
          className="h-10 min-w-16 rounded bg-slate-800 px-2 font-medium text-white lg:h-7"
        >
          {running ? "Pause" : "Play"}
        </button>
        <input type="range" min={0} max={last} value={at} onChange={(event) => setAt(Number(event.target.value))} aria-label="Frame" className="min-w-0 flex-1" />
        <span className="tabular-nums">
          {at + 1}/{last + 1}
        </span>
      </figcaption>
    </figure>
  );
}
