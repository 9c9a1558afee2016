import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, statfsSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { forwardItem, image, jsonl, zipOf, type BatchFiles } from "../fixtures/import-batches";
import { sessionCookie, startAppServer, type AppServer } from "./app-server";
import { createDatabase, giveToServerUser, startThrowawayCluster, type ThrowawayCluster } from "./pg-cluster";
import { createStudyRow, createUsers, migrate, type SeededUser } from "./seed";

/**
 * Disk full or read-only storage during an import gives a clear error and no
 * partial batch.
 *
 * Disk full, for real: the test's own PostgreSQL cluster keeps the database in a tablespace on a
 * small tmpfs (mounted for the test; needs root, which CI has), shrunk to a few MiB above what the
 * migrated database uses. The import's images do not fit: PostgreSQL's write fails with ENOSPC,
 * which it reports as SQLSTATE 53100 disk_full, inside the import's one transaction. Where no
 * tmpfs can be mounted (not root), a trigger raises the same SQLSTATE after the first rows, and
 * the test says so in its name.
 *
 * Read-only: the cluster is switched to default_transaction_read_only mid-run (ALTER SYSTEM and a
 * reload), as during a failover to a standby; writes fail with 25006.
 */

let cluster: ThrowawayCluster;
let databaseUrl: string;
let pool: pg.Pool;
let server: AppServer;
let admin: SeededUser;
let studySlug: string;
let smallFs: string | null = null;

function mountTmpfs(target: string, sizeKiB: number): boolean {
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", `size=${sizeKiB}k,mode=0700`, "tmpfs", target], { stdio: "pipe" });
    return true;
  } catch {
    return false;
  }
}

function resize(target: string, sizeKiB: number): void {
  execFileSync("mount", ["-o", `remount,size=${sizeKiB}k`, target], { stdio: "pipe" });
}

function usedKiB(target: string): number {
  const stats = statfsSync(target);
  return Math.ceil(((stats.blocks - stats.bfree) * stats.bsize) / 1024);
}

/** A batch whose images are incompressible noise (PostgreSQL cannot squeeze them under the limit). */
async function bigBatch(items: number, side: number): Promise<Buffer> {
  const files: BatchFiles = {};
  const lines = [];
  for (let i = 0; i < items; i++) {
    const noise = randomBytes(side * side * 3);
    files[`img/noise-${i}.png`] = await sharp(noise, { raw: { width: side, height: side, channels: 3 } })
      .png({ compressionLevel: 0 })
      .toBuffer();
    files[`img/b-${i}.png`] = await image(`b-${i}`);
    lines.push(forwardItem(`full-${i}`, { candidates: [`img/noise-${i}.png`, `img/b-${i}.png`] }));
  }
  files["img/start.png"] = await image("start");
  files["items.jsonl"] = jsonl(lines);
  return zipOf(files, { compression: "STORE" });
}

beforeAll(async () => {
  cluster = await startThrowawayCluster();
  const target = path.join(cluster.dir, "small");
  mkdirSync(target);
  if (process.getuid?.() === 0 && mountTmpfs(target, 64 * 1024)) {
    smallFs = target;
    giveToServerUser(target);
    const admin = new pg.Client({ connectionString: cluster.serverUrl });
    await admin.connect();
    await admin.query(`CREATE TABLESPACE small LOCATION '${target}'`);
    await admin.end();
  }
  databaseUrl = await createDatabase(cluster.serverUrl, "yardstick_full", smallFs ? { tablespace: "small" } : {});
  await migrate(databaseUrl);
  pool = new pg.Pool({ connectionString: databaseUrl, max: 3 });
  pool.on("error", () => undefined);
  [admin] = await createUsers(pool, 1, "ADMIN");
  studySlug = `full-${Date.now().toString(36)}`;
  await createStudyRow(pool, studySlug, "Disk full");
  server = await startAppServer({ databaseUrl });
});

afterAll(async () => {
  await server?.kill("SIGKILL");
  await pool?.end().catch(() => undefined);
  cluster?.pgCtl("-m", "immediate", "-w", "stop");
  if (smallFs) execFileSync("umount", [smallFs], { stdio: "pipe" });
  cluster?.destroy();
});

async function counts() {
  const row = (
    await pool.query(
      `SELECT (SELECT count(*) FROM "Batch")::int AS batches, (SELECT count(*) FROM "Item")::int AS items, (SELECT count(*) FROM "Asset")::int AS assets, (SELECT count(*) FROM "StudyAsset")::int AS links, (SELECT count(*) FROM "AuditLog")::int AS audits`,
    )
  ).rows[0];
  return row as Record<string, number>;
}

async function upload(zip: Buffer): Promise<Response> {
  const form = new FormData();
  form.set("study", studySlug);
  form.append("files", new Blob([new Uint8Array(zip)]), "big.zip");
  return fetch(`${server.baseUrl}/api/admin/import`, { method: "POST", body: form, headers: { cookie: await sessionCookie(admin.id) } });
}

describe("storage that refuses writes during an import", () => {
  it(`disk full (${process.getuid?.() === 0 ? "a tablespace on a small tmpfs: real ENOSPC" : "simulated: a trigger raising SQLSTATE 53100"}): 507 with a clear message, no partial batch; the same import works once there is room`, async () => {
    const zip = await bigBatch(8, 700); // 8 images of 1.4 MiB of noise
    if (smallFs) {
      resize(smallFs, usedKiB(smallFs) + 4 * 1024); // 4 MiB left
    } else {
      await pool.query(
        `CREATE FUNCTION disk_full() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'could not extend file: No space left on device' USING ERRCODE = 'disk_full'; END $$`,
      );
      await pool.query(`CREATE TRIGGER disk_full AFTER INSERT ON "Item" FOR EACH STATEMENT EXECUTE FUNCTION disk_full()`);
    }
    const before = await counts();
    const refused = await upload(zip);
    const body = await refused.text();
    expect(refused.status, body).toBe(507);
    expect(JSON.parse(body)).toEqual({
      error: "The database server is out of disk space; nothing was written. Ask an administrator to free space, then try again.",
      code: "STORAGE_FULL",
    });
    expect(await counts()).toEqual(before);
    if (smallFs) expect(server.output()).toMatch(/database failure \(disk-full\): .*(No space left on device|could not extend)/);

    if (smallFs) resize(smallFs, usedKiB(smallFs) + 128 * 1024);
    else await pool.query(`DROP TRIGGER disk_full ON "Item"`);
    const imported = await upload(zip);
    expect(imported.status, await imported.clone().text()).toBe(201);
    expect(await imported.json()).toMatchObject({ status: "imported", newItems: 8 });
    expect((await counts()).items).toBe(before.items + 8);
  });

  it("read-only database (as after a failover): 503 saying so, nothing written; imports work once it takes writes again", async () => {
    const zip = await zipOf({
      "img/start.png": await image("ro-start"),
      "img/ro-a.png": await image("ro-a"),
      "img/ro-b.png": await image("ro-b"),
      "items.jsonl": jsonl([forwardItem("ro", { initialImage: "img/start.png", candidates: ["img/ro-a.png", "img/ro-b.png"] })]),
    });
    const admin = new pg.Client({ connectionString: cluster.serverUrl });
    await admin.connect();
    try {
      await admin.query(`ALTER SYSTEM SET default_transaction_read_only = on`);
      await admin.query(`SELECT pg_reload_conf()`);
      await new Promise((resolve) => setTimeout(resolve, 300)); // backends read the new setting
      const before = await counts();
      const refused = await upload(zip);
      const body = await refused.text();
      expect(refused.status, body).toBe(503);
      expect(refused.headers.get("retry-after")).toBe("30");
      expect(JSON.parse(body)).toMatchObject({ code: "UNAVAILABLE", error: expect.stringContaining("read-only") });
      expect(await counts()).toEqual(before);
    } finally {
      await admin.query(`ALTER SYSTEM RESET default_transaction_read_only`);
      await admin.query(`SELECT pg_reload_conf()`);
      await admin.end();
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    const imported = await upload(zip);
    expect(imported.status, await imported.clone().text()).toBe(201);
  });
});
