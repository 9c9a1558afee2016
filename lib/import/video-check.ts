/**
 * Videos in a batch (docs/media.md): MP4 (ISO base media file, ISO/IEC 14496-12: a box "ftyp" at
 * byte 4) and WebM (an EBML header, 1A 45 DF A3, whose DocType is "webm"), told by magic bytes,
 * never by name; then the container is parsed (music-metadata) and must give a duration and a
 * frame size, which are stored on the Asset. music-metadata reads MP4 durations only of audio
 * tracks, so an MP4's duration (mvhd: duration / timescale) and frame size (tkhd of the track whose
 * handler is "vide": width, height as 16.16 fixed point) are read from its boxes here.
 */
import { assetStoreKind } from "@/lib/assets/config";
import { holdsMarkup } from "@/lib/import/markup";

export type VideoMime = "video/mp4" | "video/webm";

export const acceptedVideoTypes = "MP4 or WebM";

export const DEFAULT_MAX_VIDEO_BYTES = 200 * 1024 * 1024;
/** in a bytea each video is one value read and written whole by the import: a lower cap */
export const DEFAULT_MAX_VIDEO_BYTES_POSTGRES = 64 * 1024 * 1024;

/**
 * The largest video accepted: `YARDSTICK_MAX_VIDEO_BYTES` (bytes); when unset 200 MiB with the S3
 * store and 64 MiB with the PostgreSQL store.
 */
export function maxVideoBytes(env: Record<string, string | undefined> = process.env): number {
  const value = env.YARDSTICK_MAX_VIDEO_BYTES;
  if (value === undefined || value.trim() === "") return assetStoreKind(env) === "s3" ? DEFAULT_MAX_VIDEO_BYTES : DEFAULT_MAX_VIDEO_BYTES_POSTGRES;
  const bytes = Number(value.trim());
  if (!Number.isSafeInteger(bytes) || bytes < 1)
    throw new Error(`YARDSTICK_MAX_VIDEO_BYTES must be a whole number of bytes of at least 1; got ${JSON.stringify(value)}`);
  return bytes;
}

const ebml = [0x1a, 0x45, 0xdf, 0xa3];

/** The MIME type of an MP4 or WebM file by its first bytes, else null. */
export function sniffVideoMime(bytes: Uint8Array): VideoMime | null {
  if (bytes.length >= 12 && Buffer.from(bytes.subarray(4, 8)).toString("latin1") === "ftyp") return "video/mp4";
  if (ebml.every((byte, i) => bytes[i] === byte)) {
    const head = Buffer.from(bytes.subarray(0, 64)).toString("latin1");
    if (head.includes("webm")) return "video/webm";
  }
  return null;
}

/** What a file that is no MP4 or WebM is instead, when it is a known other container. */
export function describeNonVideo(bytes: Uint8Array): string | null {
  if (ebml.every((byte, i) => bytes[i] === byte)) return "it is a Matroska file that is not WebM";
  const head = Buffer.from(bytes.subarray(0, 12)).toString("latin1");
  if (head.startsWith("RIFF") && head.slice(8, 12) === "AVI ") return "it is an AVI file";
  if (head.startsWith("GIF8")) return "it is a GIF image";
  return null;
}

export interface VideoInfo {
  durationS: number;
  width: number;
  height: number;
}

interface Box {
  type: string;
  start: number;
  end: number;
}

/** The boxes in bytes[from, to); throws on a box that runs past its parent. */
function boxes(bytes: Buffer, from: number, to: number): Box[] {
  const found: Box[] = [];
  let at = from;
  while (at + 8 <= to) {
    let size = bytes.readUInt32BE(at);
    const type = bytes.toString("latin1", at + 4, at + 8);
    let header = 8;
    if (size === 1) {
      if (at + 16 > to) throw new Error(`box "${type}" is cut short`);
      size = Number(bytes.readBigUInt64BE(at + 8));
      header = 16;
    } else if (size === 0) size = to - at;
    if (size < header || at + size > to) throw new Error(`box "${type}" at byte ${at} runs past the end of the file`);
    found.push({ type, start: at + header, end: at + size });
    at += size;
  }
  return found;
}

function child(bytes: Buffer, parent: Box, type: string): Box | undefined {
  return boxes(bytes, parent.start, parent.end).find((box) => box.type === type);
}

/** Duration and frame size of an MP4 from its moov box; throws naming what is missing. */
export function mp4Info(bytes: Buffer): VideoInfo {
  const moov = boxes(bytes, 0, bytes.length).find((box) => box.type === "moov");
  if (!moov) throw new Error('it has no movie box ("moov")');
  const mvhd = child(bytes, moov, "mvhd");
  if (!mvhd) throw new Error('it has no movie header ("mvhd")');
  const version = bytes[mvhd.start];
  const timescale = bytes.readUInt32BE(mvhd.start + (version === 1 ? 20 : 12));
  const duration = version === 1 ? Number(bytes.readBigUInt64BE(mvhd.start + 24)) : bytes.readUInt32BE(mvhd.start + 16);
  if (timescale === 0) throw new Error("its movie header has a time scale of 0");
  for (const trak of boxes(bytes, moov.start, moov.end).filter((box) => box.type === "trak")) {
    const mdia = child(bytes, trak, "mdia");
    const hdlr = mdia && child(bytes, mdia, "hdlr");
    if (!hdlr || bytes.toString("latin1", hdlr.start + 8, hdlr.start + 12) !== "vide") continue;
    const tkhd = child(bytes, trak, "tkhd");
    if (!tkhd) throw new Error('its video track has no track header ("tkhd")');
    // width and height are the header's last 8 bytes, 16.16 fixed point
    const width = Math.round(bytes.readUInt32BE(tkhd.end - 8) / 65536);
    const height = Math.round(bytes.readUInt32BE(tkhd.end - 4) / 65536);
    return { durationS: duration / timescale, width, height };
  }
  throw new Error("it has no video track");
}

/**
 * What is wrong with a video whose magic bytes passed, or its duration and frame size: the
 * container must parse (music-metadata), have a video track with a frame size, and a duration.
 */
export async function probeVideo(bytes: Buffer, mime: VideoMime): Promise<{ problem: string } | { info: VideoInfo }> {
  const { parseBuffer } = await import("music-metadata");
  let parsed: Awaited<ReturnType<typeof parseBuffer>>;
  try {
    parsed = await parseBuffer(bytes, { mimeType: mime, size: bytes.length }, { duration: true, skipCovers: true });
  } catch (error) {
    return { problem: `its container cannot be read (${error instanceof Error ? error.message.split("\n")[0] : String(error)})` };
  }
  let info: VideoInfo;
  if (mime === "video/mp4") {
    try {
      // boxes that hold no media (padding, a vendor's own data): HTML there makes the file a polyglot a browser could render
      for (const box of boxes(bytes, 0, bytes.length)) {
        if (["free", "skip", "uuid", "udta", "meta"].includes(box.type) && holdsMarkup(bytes.subarray(box.start, box.end)))
          return { problem: `a "${box.type}" box holds HTML: a file a browser could render as a page` };
      }
      info = mp4Info(bytes);
    } catch (error) {
      return { problem: error instanceof Error ? error.message : String(error) };
    }
  } else {
    const video = parsed.format.trackInfo.find((track) => track.video?.pixelWidth && track.video.pixelHeight)?.video;
    if (!video) return { problem: "it has no video track with a frame size" };
    if (!parsed.format.duration) return { problem: "its container gives no duration (remux it, e.g. ffmpeg -i in.webm -c copy out.webm)" };
    info = { durationS: parsed.format.duration, width: Number(video.pixelWidth), height: Number(video.pixelHeight) };
  }
  if (!(info.durationS > 0) || !Number.isFinite(info.durationS)) return { problem: "its container gives no duration" };
  if (!(info.width > 0 && info.height > 0)) return { problem: "its video track has no frame size" };
  if (info.width > 8192 || info.height > 8192) return { problem: `it is ${info.width} x ${info.height} pixels, more than 8192 on a side` };
  return { info };
}
