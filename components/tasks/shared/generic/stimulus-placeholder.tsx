"use client";

import type { Media } from "@/lib/tasks/shared/media/schema";
import { useAnnotationStore } from "@/components/annotate/annotation-store-provider";
import { ZoomableImage } from "@/components/tasks/shared/panel";

/**
 * The stimulus of a generic item (text, images, a video or frames), shown plainly until the
 * shared player (components/tasks/shared/media, with its playback events and rules) replaces it:
 * images open large, a video plays with the browser's controls, frames show the first one.
 */
export function StimulusPlaceholder({ media }: { media: Media | undefined }) {
  const zoom = useAnnotationStore((s) => s.zoom);
  if (!media) return null;
  return (
    <div className="flex flex-col gap-2" data-testid="stimulus">
      {media.text ? <p className="whitespace-pre-wrap text-sm leading-snug text-slate-800">{media.text}</p> : null}
      {media.video ? (
        <video src={media.video} controls playsInline preload="metadata" className="max-h-[50vh] w-full rounded-md bg-black" aria-label="The video" />
      ) : null}
      {media.frames && media.frames.length > 0 ? (
        <ZoomableImage src={media.frames[0]} alt={`Frame 1 of ${media.frames.length}`} onZoom={() => zoom(media.frames![0], "observation", 0)} className="aspect-video w-full" />
      ) : null}
      {media.images?.map((src, index) => (
        <ZoomableImage key={`${src}-${index}`} src={src} alt={media.images!.length > 1 ? `Image ${index + 1}` : "The image"} onZoom={() => zoom(src, "observation", index)} className="max-h-[50vh] min-h-32 w-full" />
      ))}
    </div>
  );
}
