import { z } from "zod";
import type { AssetReplace } from "@/lib/tasks/types";

/**
 * The stimulus of a generic item (choice, numeric, free text, rating, pairwise): text, images, and
 * a video given as one file (mp4/webm) or as a folder of frames played at `fps`. Media strings are
 * paths inside the imported batch; the importer replaces them with asset URLs (mapMedia), so the
 * public view carries "/api/assets/<sha256>" only. `cutAt` (seconds) ends a clip early.
 */
export const MEDIA_CAPS = { text: 20_000, images: 16, frames: 2_000 } as const;

const mediaRef = z.string().min(1).max(512);

export const mediaSchema = z
  .strictObject({
    text: z.string().max(MEDIA_CAPS.text).optional(),
    images: z.array(mediaRef).max(MEDIA_CAPS.images).optional(),
    video: mediaRef.optional(),
    frames: z.array(mediaRef).min(1).max(MEDIA_CAPS.frames).optional(),
    fps: z.number().positive().max(120).optional(),
    cutAt: z.number().positive().max(86_400).optional(),
  })
  .refine((media) => !(media.video && media.frames), { message: "give either video or frames, not both", path: ["frames"] })
  .refine((media) => !media.frames || media.fps !== undefined, { message: "frames need fps", path: ["fps"] });

export type Media = z.infer<typeof mediaSchema>;

/**
 * The media with every asset reference passed through `replace` (the importer's path -> URL), the
 * video through `replace.video` when the importer gives it (it then checks an MP4 or WebM video and
 * probes its container), images and frames as images.
 */
export function mapMedia(media: Media, replace: AssetReplace): Media {
  return {
    ...media,
    ...(media.images ? { images: media.images.map((ref) => replace(ref)) } : {}),
    ...(media.video ? { video: (replace.video ?? replace)(media.video) } : {}),
    ...(media.frames ? { frames: media.frames.map((ref) => replace(ref)) } : {}),
  };
}
