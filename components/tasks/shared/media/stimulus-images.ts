import type { Media } from "@/lib/tasks/shared/media/schema";

/** Every image URL of a stimulus (a kind's TaskUi.images, to preload the next item): its images and the first frames. */
export function stimulusImages(media: Media | undefined): string[] {
  if (!media) return [];
  return [...(media.images ?? []), ...(media.frames ?? []).slice(0, 8)];
}
