import { describe, expect, it } from "vitest";
import { maxVideoBytes, mp4Info, probeVideo, sniffVideoMime, DEFAULT_MAX_VIDEO_BYTES, DEFAULT_MAX_VIDEO_BYTES_POSTGRES } from "@/lib/import/video-check";
import { demoVideo, paddedMp4 } from "@/tests/fixtures/media-kind";

// the demo clip is drawn as 4 s at 320 x 240 (scripts/demo-data/media/make-demo-video.sh)
const clip = { durationS: 4, width: 320, height: 240 };

describe("sniffVideoMime", () => {
  it("tells MP4 (ftyp box) and WebM (EBML with DocType webm) by their bytes", () => {
    expect(sniffVideoMime(demoVideo("mp4"))).toBe("video/mp4");
    expect(sniffVideoMime(demoVideo("webm"))).toBe("video/webm");
    expect(sniffVideoMime(Buffer.from("<html>not a video</html>"))).toBeNull();
    // a Matroska file: same EBML magic, another DocType
    const mkv = Buffer.from(demoVideo("webm"));
    mkv.write("mtrx", mkv.indexOf("webm", 0, "latin1"), "latin1");
    expect(sniffVideoMime(mkv)).toBeNull();
  });
});

describe("probeVideo", () => {
  it("gives duration and frame size of the demo clip, MP4 and WebM alike", async () => {
    for (const format of ["mp4", "webm"] as const) {
      const result = await probeVideo(demoVideo(format), format === "mp4" ? "video/mp4" : "video/webm");
      expect(result, format).toHaveProperty("info");
      const info = (result as { info: { durationS: number; width: number; height: number } }).info;
      expect(info.durationS, format).toBeCloseTo(clip.durationS, 2);
      expect({ width: info.width, height: info.height }, format).toEqual({ width: clip.width, height: clip.height });
    }
  }, 30_000); // the first import of music-metadata takes seconds on a busy machine

  it("reads an MP4 with a trailing free box as the same clip", async () => {
    expect(mp4Info(paddedMp4(50_000))).toMatchObject({ width: clip.width, height: clip.height });
  });

  it("refuses an MP4 with HTML in a free box (a polyglot a browser could render), and keeps one with padding", async () => {
    const html = Buffer.from("<html><body><script>alert(document.cookie)</script></body></html>");
    const header = Buffer.alloc(8);
    header.writeUInt32BE(html.length + 8, 0);
    header.write("free", 4, "latin1");
    const polyglot = Buffer.concat([demoVideo("mp4"), header, html]);
    expect(await probeVideo(polyglot, "video/mp4")).toEqual({ problem: expect.stringContaining('a "free" box holds HTML') });
    expect(await probeVideo(paddedMp4(5_000), "video/mp4")).toHaveProperty("info");
  }, 30_000);

  it("refuses a cut or damaged container with the reason", async () => {
    const mp4 = demoVideo("mp4");
    const cut = await probeVideo(mp4.subarray(0, Math.floor(mp4.length / 2)), "video/mp4");
    expect(cut).toHaveProperty("problem");
    const webm = demoVideo("webm");
    const garbage = Buffer.concat([webm.subarray(0, 40), Buffer.alloc(4000, 0xff)]);
    expect(await probeVideo(garbage, "video/webm")).toHaveProperty("problem");
    // an MP4 header with nothing after it: no movie box
    const header = mp4.subarray(0, mp4.readUInt32BE(0));
    expect(await probeVideo(header, "video/mp4")).toEqual({ problem: expect.stringMatching(/moov|container/) });
  });
});

describe("maxVideoBytes", () => {
  it("is 200 MiB with S3, 64 MiB with PostgreSQL, or YARDSTICK_MAX_VIDEO_BYTES; refuses nonsense", () => {
    expect(maxVideoBytes({})).toBe(DEFAULT_MAX_VIDEO_BYTES_POSTGRES);
    expect(maxVideoBytes({ ASSET_STORE: "s3" })).toBe(DEFAULT_MAX_VIDEO_BYTES);
    expect(maxVideoBytes({ YARDSTICK_MAX_VIDEO_BYTES: "1000" })).toBe(1000);
    expect(() => maxVideoBytes({ YARDSTICK_MAX_VIDEO_BYTES: "lots" })).toThrow(/YARDSTICK_MAX_VIDEO_BYTES/);
    expect(() => maxVideoBytes({ ASSET_STORE: "disk" })).toThrow(/ASSET_STORE/);
  });
});
