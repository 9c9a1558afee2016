import { createHash } from "node:crypto";
import { ListObjectsV2Command, PutObjectCommand } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getAssetForUser, serveAssetForUser } from "@/lib/assets";
import { s3Settings } from "@/lib/assets/config";
import { migrateAssetsToS3 } from "@/lib/assets/migrate";
import { hashObject, s3Client } from "@/lib/assets/s3";
import { assetResponse } from "@/lib/assets/serve";
import { POSTGRES_READ_CHUNK } from "@/lib/assets/store";
import { runAssetsCommand } from "@/lib/cli/assets";
import { db } from "@/lib/db";
import { isAppError } from "@/lib/errors";
import { importBatch, readBatchSource } from "@/lib/import";
import { registerKind } from "@/lib/tasks";
import { addMember, createStudy, createUser, resetDatabase } from "@/tests/db-helpers";
import { image, jsonl, removeTempFolders, writeFolder, type BatchFiles } from "@/tests/fixtures/import-batches";
import { demoVideo, MEDIA_KIND, paddedMp4, toyMediaModule } from "@/tests/fixtures/media-kind";
import { setEnv, startS3rver, type TestS3 } from "@/tests/s3rver";

/**
 * Asset stores and videos against real PostgreSQL and a real S3-compatible
 * server (s3rver on a free loopback port, started and stopped here): the import of videos,
 * frames and images through the shared media schema, serving with HTTP Range, and
 * `yardstick assets migrate --to s3`. The import and serving suites run once per store.
 */

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");
// longer than two PostgreSQL read chunks, so ranges and whole reads cross chunk borders
const LONG_VIDEO = paddedMp4(2 * POSTGRES_READ_CHUNK + 123_457);
const LONG_HASH = sha256(LONG_VIDEO);

function item(id: string, media: Record<string, unknown>) {
  return { id, kind: MEDIA_KIND, public: { question: "Where does the ball land?", media }, key: { answer: "floor" } };
}

async function mediaBatch(): Promise<BatchFiles> {
  return {
    "clips/long.mp4": LONG_VIDEO,
    "clips/ball.webm": demoVideo("webm"),
    "frames/0.png": await image("frame-0"),
    "frames/1.png": await image("frame-1"),
    "img/table.png": await image("table"),
    "items.jsonl": jsonl([
      item("mp4", { video: "clips/long.mp4", cutAt: 2.4 }),
      item("webm", { video: "clips/ball.webm", text: "Watch the ball." }),
      item("frames", { frames: ["frames/0.png", "frames/1.png"], fps: 2 }),
      item("images", { images: ["img/table.png"] }),
    ]),
  };
}

async function importInto(files: BatchFiles, studySlug: string, options: { maxVideoBytes?: number } = {}) {
  return importBatch({ source: await readBatchSource({ folder: await writeFolder(files) }), studySlug, ...options });
}

async function bucketKeys(s3: TestS3): Promise<string[]> {
  const listed = await s3Client(s3Settings(s3.env)).send(new ListObjectsV2Command({ Bucket: s3.bucket }));
  return (listed.Contents ?? []).map((object) => object.Key!).sort();
}

async function get(hash: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; body: Buffer }> {
  const admin = await db.user.findFirstOrThrow({ where: { role: "ADMIN" } });
  const response = await assetResponse(new Request(`http://localhost/api/assets/${hash}`, { headers }), await getAssetForUser(hash, admin.id, "ADMIN"));
  return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
}

beforeAll(() => {
  registerKind(toyMediaModule);
});
afterAll(removeTempFolders);

describe.each(["postgres", "s3"] as const)("the %s asset store", (store) => {
  let s3: TestS3 | undefined;
  let restoreEnv: () => void = () => undefined;

  beforeAll(async () => {
    if (store === "s3") {
      s3 = await startS3rver();
      restoreEnv = setEnv({ ...s3.env, ASSET_STORE: "s3", ASSET_S3_SERVE: undefined });
    } else {
      restoreEnv = setEnv({ ASSET_STORE: undefined, YARDSTICK_MAX_VIDEO_BYTES: undefined });
    }
  });
  afterAll(async () => {
    restoreEnv();
    await s3?.stop();
  });
  beforeEach(async () => {
    await resetDatabase();
    await createUser("ADMIN");
  });

  it("imports MP4 and WebM videos, frames and images through the media schema, with duration and frame size, and stores nothing twice", async () => {
    const study = await createStudy();
    const files = await mediaBatch();
    const result = await importInto(files, study.slug);
    expect(result).toMatchObject({ status: "imported", newItems: 4, assetsStored: 5 });

    const items = await db.item.findMany({ where: { studyId: study.id }, select: { externalId: true, public: true } });
    const media = Object.fromEntries(items.map((row) => [row.externalId, (row.public as { media: Record<string, unknown> }).media]));
    expect(media.mp4).toEqual({ video: `/api/assets/${LONG_HASH}`, cutAt: 2.4 });
    expect(media.webm).toEqual({ video: `/api/assets/${sha256(demoVideo("webm"))}`, text: "Watch the ball." });
    expect(media.frames).toEqual({
      frames: [`/api/assets/${sha256(files["frames/0.png"] as Buffer)}`, `/api/assets/${sha256(files["frames/1.png"] as Buffer)}`],
      fps: 2,
    });

    const long = await db.asset.findUniqueOrThrow({
      where: { hash: LONG_HASH },
      select: { mime: true, size: true, durationS: true, width: true, height: true, inObjectStore: true, bytes: true },
    });
    expect(long).toMatchObject({ mime: "video/mp4", size: LONG_VIDEO.length, width: 320, height: 240, inObjectStore: store === "s3" });
    expect(long.durationS).toBeCloseTo(4, 2);
    expect(long.bytes === null).toBe(store === "s3");
    const webm = await db.asset.findUniqueOrThrow({
      where: { hash: sha256(demoVideo("webm")) },
      select: { mime: true, width: true, height: true, durationS: true },
    });
    expect(webm).toMatchObject({ mime: "video/webm", width: 320, height: 240 });
    expect(webm.durationS).toBeCloseTo(4, 2);
    if (s3) expect(await bucketKeys(s3)).toHaveLength(5);

    // the same files in another study (and the same batch again): linked, not stored again
    const other = await createStudy();
    expect(await importInto(files, other.slug)).toMatchObject({ status: "imported", assetsStored: 0 });
    expect(await importInto(files, study.slug)).toMatchObject({ status: "unchanged" });
    expect(await db.asset.count()).toBe(5);
    if (s3) expect(await bucketKeys(s3)).toHaveLength(5);
  });

  it("refuses bad videos naming the file, line, field and path, and stores nothing", async () => {
    const study = await createStudy();
    const keysBefore = s3 ? await bucketKeys(s3) : [];
    const files: BatchFiles = {
      "clips/ok.webm": demoVideo("webm"),
      "clips/cut.mp4": demoVideo("mp4").subarray(0, 2_000),
      "clips/still.mp4": await image("still"),
      "clips/text.webm": "not a video at all",
      "items.jsonl": jsonl([
        item("missing", { video: "clips/none.mp4" }),
        item("cut", { video: "clips/cut.mp4" }),
        item("still", { video: "clips/still.mp4" }),
        item("text", { video: "clips/text.webm" }),
        item("video-as-image", { images: ["clips/ok.webm"] }),
        item("escape", { video: "../outside.mp4" }),
      ]),
    };
    const error = await importInto(files, study.slug).then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(isAppError(error) && error.code).toBe("INVALID");
    const issues = (error as { details: { errors: Array<{ file: string; line: number; field?: string; message: string }> } }).details.errors;
    const at = (line: number) => issues.find((issue) => issue.line === line);
    expect(at(1)).toMatchObject({
      file: "items.jsonl",
      field: "public.media.video",
      message: expect.stringMatching(/^video "clips\/none\.mp4" .*(not|no such|missing|does not exist)/i),
    });
    expect(at(2)).toMatchObject({ field: "public.media.video", message: expect.stringMatching(/^video "clips\/cut\.mp4" is not a usable MP4 video: /) });
    expect(at(3)).toMatchObject({ field: "public.media.video", message: 'video "clips/still.mp4" is not an MP4 or WebM video: it is a PNG image' });
    expect(at(4)).toMatchObject({
      field: "public.media.video",
      message: expect.stringMatching(/^video "clips\/text\.webm" is not an MP4 or WebM video: it starts like text/),
    });
    expect(at(5)).toMatchObject({ field: "public.media.images[0]", message: 'image "clips/ok.webm" is a video (video/webm) where the item expects an image' });
    expect(at(6)).toMatchObject({ field: "public.media.video", message: expect.stringMatching(/^video path "\.\.\/outside\.mp4" /) });
    expect(issues).toHaveLength(6);
    expect(await db.asset.count()).toBe(0);
    expect(await db.item.count()).toBe(0);
    if (s3) expect(await bucketKeys(s3)).toEqual(keysBefore);

    // the size cap names the video and the setting
    const capped = await importInto({ "clips/ok.webm": demoVideo("webm"), "items.jsonl": jsonl([item("big", { video: "clips/ok.webm" })]) }, study.slug, {
      maxVideoBytes: 1000,
    }).catch((caught: unknown) => caught);
    expect((capped as Error).message).toMatch(/video "clips\/ok\.webm" is .* over the 1000 bytes limit per video \(YARDSTICK_MAX_VIDEO_BYTES\)/);
  });

  it("serves byte ranges: first bytes, a middle span across read chunks, a suffix, an open end, 416, the whole file, 304 and If-Range", async () => {
    const study = await createStudy();
    await importInto(await mediaBatch(), study.slug);
    const size = LONG_VIDEO.length;

    const first = await get(LONG_HASH, { range: "bytes=0-1023" });
    expect(first.status).toBe(206);
    expect(first.headers.get("content-range")).toBe(`bytes 0-1023/${size}`);
    expect(first.headers.get("content-length")).toBe("1024");
    expect(first.headers.get("accept-ranges")).toBe("bytes");
    expect(first.headers.get("content-type")).toBe("video/mp4");
    expect(first.body.equals(LONG_VIDEO.subarray(0, 1024))).toBe(true);

    const [from, to] = [POSTGRES_READ_CHUNK - 1000, 2 * POSTGRES_READ_CHUNK + 5000];
    const middle = await get(LONG_HASH, { range: `bytes=${from}-${to}` });
    expect(middle.status).toBe(206);
    expect(middle.headers.get("content-range")).toBe(`bytes ${from}-${to}/${size}`);
    expect(middle.body.equals(LONG_VIDEO.subarray(from, to + 1))).toBe(true);

    const suffix = await get(LONG_HASH, { range: "bytes=-500" });
    expect(suffix.headers.get("content-range")).toBe(`bytes ${size - 500}-${size - 1}/${size}`);
    expect(suffix.body.equals(LONG_VIDEO.subarray(size - 500))).toBe(true);

    const open = await get(LONG_HASH, { range: `bytes=${size - 70_000}-` });
    expect(open.status).toBe(206);
    expect(open.body.equals(LONG_VIDEO.subarray(size - 70_000))).toBe(true);

    const beyond = await get(LONG_HASH, { range: `bytes=${size}-` });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get("content-range")).toBe(`bytes */${size}`);

    const whole = await get(LONG_HASH);
    expect(whole.status).toBe(200);
    expect(whole.headers.get("content-length")).toBe(String(size));
    expect(sha256(whole.body)).toBe(LONG_HASH);

    expect((await get(LONG_HASH, { "if-none-match": `"${LONG_HASH}"` })).status).toBe(304);
    // If-Range with another validator: the whole file, not a piece of something else
    const stale = await get(LONG_HASH, { range: "bytes=0-9", "if-range": '"something-else"' });
    expect(stale.status).toBe(200);
    expect((await get(LONG_HASH, { range: "bytes=0-9", "if-range": `"${LONG_HASH}"` })).status).toBe(206);
    // a multi-range request gets its first range
    const multi = await get(LONG_HASH, { range: "bytes=10-19, 100-199" });
    expect(multi.headers.get("content-range")).toBe(`bytes 10-19/${size}`);
  });

  it("serves an annotator only the videos of their studies", async () => {
    const study = await createStudy();
    await importInto(await mediaBatch(), study.slug);
    const outsider = await createUser("ANNOTATOR");
    const member = await createUser("ANNOTATOR");
    await addMember(study.id, member.id);
    const request = () => new Request(`http://localhost/api/assets/${LONG_HASH}`, { headers: { range: "bytes=0-99" } });
    expect((await serveAssetForUser(request(), LONG_HASH, { id: outsider.id, role: "ANNOTATOR" })).status).toBe(404);
    const served = await serveAssetForUser(request(), LONG_HASH, { id: member.id, role: "ANNOTATOR" });
    expect(served.status).toBe(206);
    expect(Buffer.from(await served.arrayBuffer()).equals(LONG_VIDEO.subarray(0, 100))).toBe(true);
  });
});

describe("PostgreSQL range reads", () => {
  beforeAll(async () => {
    await resetDatabase();
    await createUser("ADMIN");
    await importInto(await mediaBatch(), (await createStudy()).slug);
  });

  it("read only the TOAST chunks of the range (EXTERNAL storage), not the whole value", async () => {
    // the query readAssetBytes runs, with the buffers it touches counted
    const buffersFor = async (start: number, length: number) => {
      const rows = await db.$queryRawUnsafe<Array<{ "QUERY PLAN": Array<{ Plan: { "Shared Hit Blocks": number; "Shared Read Blocks": number } }> }>>(
        `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) SELECT substring("bytes" FROM ${start + 1}::int FOR ${length}::int) FROM "Asset" WHERE "hash" = '${LONG_HASH}'`,
      );
      const plan = rows[0]["QUERY PLAN"][0].Plan;
      return plan["Shared Hit Blocks"] + plan["Shared Read Blocks"];
    };
    const storage = await db.$queryRaw<
      Array<{ attstorage: string }>
    >`SELECT attstorage::text AS attstorage FROM pg_attribute WHERE attrelid = '"Asset"'::regclass AND attname = 'bytes'`;
    expect(storage[0].attstorage).toBe("e");
    const slice = await buffersFor(POSTGRES_READ_CHUNK, 10_000);
    const whole = await buffersFor(0, LONG_VIDEO.length);
    // 2.2 MB is about 270 pages of TOAST; 10 KB a handful (plus the index pages)
    expect(whole).toBeGreaterThan(250);
    expect(slice).toBeLessThan(20);
  });
});

describe("yardstick assets migrate --to s3", () => {
  let s3: TestS3;
  let restoreEnv: () => void;
  let hashes: string[];

  beforeAll(async () => {
    s3 = await startS3rver();
    restoreEnv = setEnv({ ...s3.env, ASSET_STORE: undefined, ASSET_S3_SERVE: undefined });
    await resetDatabase();
    await createUser("ADMIN");
    await importInto(await mediaBatch(), (await createStudy()).slug);
    hashes = (await db.asset.findMany({ select: { hash: true }, orderBy: { hash: "asc" } })).map((row) => row.hash);
  });
  afterAll(async () => {
    restoreEnv();
    await s3.stop();
  });

  it("copies every asset verified by sha256, resumes, repairs a bad object, and clears PostgreSQL only when asked", async () => {
    const settings = s3Settings();
    const first = await migrateAssetsToS3(settings);
    expect(first).toMatchObject({ total: 5, alreadyMigrated: 0, foundInBucket: 0, copied: 5, failed: [], cleared: 0 });
    expect(await bucketKeys(s3)).toEqual(hashes);
    for (const hash of hashes) expect((await hashObject(settings, hash))?.sha256).toBe(hash);
    expect(await db.asset.count({ where: { inObjectStore: true, bytes: { not: null } } })).toBe(5);

    // again: nothing to do
    expect(await migrateAssetsToS3(settings)).toMatchObject({ alreadyMigrated: 5, foundInBucket: 0, copied: 0 });

    // an interrupted run: uploaded but not marked; found, verified, not uploaded again
    await db.asset.update({ where: { hash: hashes[0] }, data: { inObjectStore: false } });
    // and an object with the wrong bytes under a key: uploaded again
    await db.asset.update({ where: { hash: hashes[1] }, data: { inObjectStore: false } });
    const size = (await db.asset.findUniqueOrThrow({ where: { hash: hashes[1] } })).size;
    await s3Client(settings).send(new PutObjectCommand({ Bucket: s3.bucket, Key: hashes[1], Body: Buffer.alloc(size, 7), ContentLength: size }));
    expect(await migrateAssetsToS3(settings)).toMatchObject({ alreadyMigrated: 3, foundInBucket: 1, copied: 1, failed: [] });
    expect((await hashObject(settings, hashes[1]))?.sha256).toBe(hashes[1]);

    // the command line's function, with the explicit flag: PostgreSQL copies go
    const report = await runAssetsCommand(["migrate", "--to", "s3", "--clear-postgres"]);
    expect(report).toMatch(/5 already in the bucket.*0 copied.*5 PostgreSQL copies cleared/);
    expect(await db.asset.count({ where: { bytes: null, inObjectStore: true } })).toBe(5);

    // served from the bucket now, Range included, with ASSET_STORE still postgres
    const part = await get(LONG_HASH, { range: "bytes=1000-1999" });
    expect(part.status).toBe(206);
    expect(part.body.equals(LONG_VIDEO.subarray(1000, 2000))).toBe(true);
  });

  it("with ASSET_S3_SERVE=redirect answers with a short-lived presigned URL that serves ranges", async () => {
    const restore = setEnv({ ASSET_STORE: "s3", ASSET_S3_SERVE: "redirect", ASSET_S3_URL_SECONDS: "30" });
    try {
      const answer = await get(LONG_HASH, { range: "bytes=0-99" });
      expect(answer.status).toBe(302);
      expect(answer.headers.get("cache-control")).toBe("private, no-store");
      const location = answer.headers.get("location")!;
      expect(location.startsWith(`${s3.endpoint}/${s3.bucket}/${LONG_HASH}?`)).toBe(true);
      expect(new URL(location).searchParams.get("X-Amz-Expires")).toBe("30");
      const fetched = await fetch(location, { headers: { range: "bytes=0-99" } });
      expect(fetched.status).toBe(206);
      expect(Buffer.from(await fetched.arrayBuffer()).equals(LONG_VIDEO.subarray(0, 100))).toBe(true);
    } finally {
      restore();
    }
  });
});
