import { createHash } from "node:crypto";
import pg from "pg";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { putObject } from "@/lib/assets/s3";
import { s3Settings } from "@/lib/assets/config";
import { demoVideo, paddedMp4 } from "../fixtures/media-kind";
import { setEnv, startS3rver, type TestS3 } from "../s3rver";
import { sessionCookie, startAppServer, type AppServer } from "./app-server";
import { createDatabase, dropDatabase } from "./pg-cluster";
import { createStudyRow, createUsers, migrate, type SeededUser } from "./seed";

/**
 * Media: videos served with HTTP Range through the real route of the production
 * build, from both stores at once (the app runs with ASSET_STORE=s3 against s3rver, and each
 * Asset row says where its bytes are: a WebM in PostgreSQL, MP4s only in the bucket). Byte ranges,
 * 416 and authorisation by fetch; then Chromium's <video> loads each clip from 206 answers and seeks.
 */

const serverUrl = process.env.YARDSTICK_TEST_PG_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const dbName = `yardstick_faults_media_${process.pid}_${Date.now().toString(36)}`;
const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

const webm = demoVideo("webm");
const mp4 = demoVideo("mp4");
const long = paddedMp4(3 * 1024 * 1024);
const clips = {
  "webm in PostgreSQL": { bytes: webm, hash: sha256(webm), mime: "video/webm" },
  "mp4 in the bucket": { bytes: mp4, hash: sha256(mp4), mime: "video/mp4" },
  "3 MB mp4 in the bucket": { bytes: long, hash: sha256(long), mime: "video/mp4" },
};

let databaseUrl: string;
let pool: pg.Pool;
let server: AppServer;
let s3: TestS3;
let restoreEnv: () => void;
let admin: SeededUser;
let member: SeededUser;
let outsider: SeededUser;
let browser: Browser | undefined;

beforeAll(async () => {
  s3 = await startS3rver();
  restoreEnv = setEnv(s3.env);
  databaseUrl = await createDatabase(serverUrl, dbName);
  await migrate(databaseUrl);
  pool = new pg.Pool({ connectionString: databaseUrl, max: 3 });
  [admin] = await createUsers(pool, 1, "ADMIN", "media");
  [member, outsider] = await createUsers(pool, 2, "ANNOTATOR", "media");
  const studyId = await createStudyRow(pool, `media-${Date.now().toString(36)}`, "Media");
  await pool.query(`INSERT INTO "StudyMember" ("studyId", "userId") VALUES ($1, $2)`, [studyId, member.id]);
  for (const [name, clip] of Object.entries(clips)) {
    const inBucket = name.includes("bucket");
    if (inBucket) await putObject(s3Settings(), { hash: clip.hash, mime: clip.mime, size: clip.bytes.length }, clip.bytes);
    await pool.query(
      `INSERT INTO "Asset" ("hash", "mime", "size", "bytes", "inObjectStore", "durationS", "width", "height") VALUES ($1, $2, $3, $4, $5, 4, 320, 240)`,
      [clip.hash, clip.mime, clip.bytes.length, inBucket ? null : clip.bytes, inBucket],
    );
    await pool.query(`INSERT INTO "StudyAsset" ("studyId", "assetHash") VALUES ($1, $2)`, [studyId, clip.hash]);
  }
  server = await startAppServer({ databaseUrl, env: { ...s3.env, ASSET_STORE: "s3", ASSET_S3_SERVE: "proxy", YARDSTICK_WORKERS: "1" } });
});

afterAll(async () => {
  await browser?.close();
  await server?.kill("SIGKILL");
  await pool?.end();
  await dropDatabase(serverUrl, dbName);
  restoreEnv?.();
  await s3?.stop();
});

async function get(hash: string, userId: string, range?: string): Promise<{ status: number; headers: Headers; body: Buffer }> {
  const response = await fetch(`${server.baseUrl}/api/assets/${hash}`, { headers: { cookie: await sessionCookie(userId), ...(range ? { range } : {}) } });
  return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
}

describe.each(Object.entries(clips))("the %s", (_name, clip) => {
  const size = clip.bytes.length;
  it("answers first bytes, a middle span, a suffix and an open end with 206, past the end with 416, no range with 200", async () => {
    const cases: Array<[string, number, number]> = [
      ["bytes=0-99", 0, 99],
      [`bytes=${Math.floor(size / 3)}-${Math.floor(size / 3) + 4999}`, Math.floor(size / 3), Math.floor(size / 3) + 4999],
      ["bytes=-300", size - 300, size - 1],
      [`bytes=${size - 1234}-`, size - 1234, size - 1],
    ];
    for (const [range, start, end] of cases) {
      const answer = await get(clip.hash, admin.id, range);
      expect(answer.status, range).toBe(206);
      expect(answer.headers.get("content-range"), range).toBe(`bytes ${start}-${end}/${size}`);
      expect(answer.headers.get("accept-ranges")).toBe("bytes");
      expect(answer.headers.get("content-type")).toBe(clip.mime);
      expect(answer.body.equals(clip.bytes.subarray(start, end + 1)), range).toBe(true);
    }
    const beyond = await get(clip.hash, admin.id, `bytes=${size}-`);
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get("content-range")).toBe(`bytes */${size}`);
    const whole = await get(clip.hash, admin.id);
    expect(whole.status).toBe(200);
    expect(sha256(whole.body)).toBe(clip.hash);
  });

  it("serves the study's annotator and no one else", async () => {
    expect((await get(clip.hash, member.id, "bytes=0-9")).status).toBe(206);
    expect((await get(clip.hash, outsider.id, "bytes=0-9")).status).toBe(404);
  });
});

describe("Chromium's <video>", () => {
  it("plays each clip from 206 answers and seeks to 3 s", async () => {
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--autoplay-policy=no-user-gesture-required"],
    });
    const context = await browser.newContext();
    const [name, value] = (await sessionCookie(member.id)).split(/=(.*)/s);
    await context.addCookies([{ name, value, url: server.baseUrl }]);
    const page = await context.newPage();
    const answers: Array<{ url: string; status: number; range: string | null }> = [];
    page.on("response", (response) => {
      if (response.url().includes("/api/assets/"))
        answers.push({ url: response.url(), status: response.status(), range: response.request().headers()["range"] ?? null });
    });
    await page.goto(`${server.baseUrl}/studies`);
    for (const [name, clip] of Object.entries(clips)) {
      const result = await page.evaluate(async (src) => {
        const video = document.createElement("video");
        video.muted = true;
        video.preload = "auto";
        video.src = src;
        document.body.append(video);
        await new Promise<void>((resolve, reject) => {
          video.addEventListener("loadedmetadata", () => resolve(), { once: true });
          video.addEventListener("error", () => reject(new Error(`media error ${video.error?.code}: ${video.error?.message}`)), { once: true });
        });
        await new Promise<void>((resolve) => {
          video.addEventListener("seeked", () => resolve(), { once: true });
          video.currentTime = 3;
        });
        await new Promise<void>((resolve) => (video.readyState >= 2 ? resolve() : video.addEventListener("loadeddata", () => resolve(), { once: true })));
        return { duration: video.duration, currentTime: video.currentTime, width: video.videoWidth, height: video.videoHeight, readyState: video.readyState };
      }, `/api/assets/${clip.hash}`);
      expect(result.duration, name).toBeCloseTo(4, 1);
      expect(result.currentTime, name).toBeCloseTo(3, 1);
      expect({ width: result.width, height: result.height }, name).toEqual({ width: 320, height: 240 });
      const mine = answers.filter((answer) => answer.url.endsWith(clip.hash));
      expect(mine.length, name).toBeGreaterThan(0);
      // every request of the media element carried a Range and got a 206
      expect(
        mine.every((answer) => answer.range !== null && answer.status === 206),
        `${name}: ${JSON.stringify(mine)}`,
      ).toBe(true);
    }
    await context.close();
  });
});
