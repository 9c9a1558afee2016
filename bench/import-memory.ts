/**
 * Import benchmark ("a 100,000-line items file took 25 s and 1.6 GB of server memory
 * while other users waited 11 s"): writes a 100,000-line items.jsonl (ENACT items sharing three
 * images: an initial image, two actions, two candidate images to order) as a folder and as a zip
 * (what the admin page uploads), imports each into its own study of a throwaway database on
 * 127.0.0.1:5432, and drops the database. The items' kind is found in the registry, not named (a
 * kind keeps its id to its folders, tests/kind-names.test.ts): the first kind whose item schema
 * takes that item and whose mapImages finds its three images; the run prints which.
 *
 *   node --expose-gc --conditions=react-server --import tsx bench/import-memory.ts [--lines 100000] [--only zip|folder]
 *
 * Printed per import, with references measured in the same run so that the figures read as ratios
 * on any machine:
 * - peak RSS during the import (sampled every 10 ms) against the RSS of the idle process just
 *   before it (modules loaded, database connected, after a GC), and the peak growth over that;
 * - the longest event-loop stall during the import (perf_hooks monitorEventLoopDelay) against the
 *   longest stall of the same process running a setTimeout(0) loop for 2 s;
 * - the wall time.
 * V8 lets garbage pile up when the heap may grow: add --max-old-space-size=160 to see what an
 * import needs to hold (the importer that read the items file whole ran out of memory there).
 * (BENCH_PG_URL overrides the server, default postgresql://postgres@127.0.0.1:5432/postgres.)
 */
import { mkdtemp, rm, writeFile, mkdir } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import JSZip from "jszip";
import pg from "pg";
import { applyMigrations } from "@/lib/db/schema-engine";
import { image } from "@/tests/fixtures/import-batches";

const args = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const LINES = Number(flag("lines") ?? 100_000);
const ONLY = flag("only");

const serverUrl = process.env.BENCH_PG_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const dbName = `yardstick_bench_import_${process.pid}_${Date.now().toString(36)}`;
const url = new URL(serverUrl);
url.pathname = `/${dbName}`;

const mib = (bytes: number) => `${(bytes / 1048576).toFixed(0)} MiB`;
const gc = () => (globalThis as { gc?: () => void }).gc?.();

const IMAGES = { initialImage: "img/start.png", candidates: ["img/a.png", "img/b.png"] };

/** Item n of the batch, of the given kind: an initial image, two actions, two candidate images to order (the three images shared by every item). */
function itemLine(kind: string, n: number) {
  return {
    id: `bench-${n}`,
    kind,
    public: {
      initialImage: IMAGES.initialImage,
      actions: ["The fridge changes to be open.", "The apple is now inside the fridge."],
      candidates: IMAGES.candidates,
    },
    key: { order: [1, 0] },
    tags: { steps: 3 + (n % 8), hand: n % 2 ? "left" : "right", n },
    practice: false,
    gold: false,
  };
}

/**
 * The batch's kind: the first registered kind whose item schema (or public and key schemas) takes
 * the bench's item and whose mapImages finds its three images, so that the import validates,
 * hashes and stores them as it would a real batch of that kind.
 */
async function batchKind(): Promise<string> {
  const { taskKinds, getTaskModule } = await import("@/lib/tasks");
  const { public: pub, key } = itemLine("", 0);
  const wanted = [IMAGES.initialImage, ...IMAGES.candidates];
  const kind = taskKinds.find((candidate) => {
    const taskModule = getTaskModule(candidate);
    const takes = taskModule.itemSchema
      ? taskModule.itemSchema.safeParse({ public: pub, key }).success
      : taskModule.publicSchema.safeParse(pub).success && taskModule.keySchema.safeParse(key).success;
    if (!takes) return false;
    const refs = new Set<string>();
    taskModule.mapImages({ public: pub, key }, (ref) => {
      refs.add(ref);
      return ref;
    });
    return wanted.every((ref) => refs.has(ref));
  });
  if (!kind) throw new Error(`no registered kind takes an item of an initial image, actions and candidate images to order (kinds: ${taskKinds.join(", ")})`);
  return kind;
}

/** The longest event-loop stall (ms) while `run` runs. */
async function withStall<T>(run: () => Promise<T>): Promise<{ value: T; stallMs: number }> {
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  try {
    const value = await run();
    return { value, stallMs: delay.max / 1e6 };
  } finally {
    delay.disable();
  }
}

/** Peak RSS and heap (bytes) while `run` runs, sampled every 10 ms. */
async function withPeakMemory<T>(run: () => Promise<T>): Promise<{ value: T; peakRss: number; peakHeap: number }> {
  let peakRss = process.memoryUsage.rss();
  let peakHeap = process.memoryUsage().heapUsed;
  const sample = () => {
    const usage = process.memoryUsage();
    peakRss = Math.max(peakRss, usage.rss);
    peakHeap = Math.max(peakHeap, usage.heapUsed);
  };
  const timer = setInterval(sample, 10);
  try {
    const value = await run();
    sample();
    return { value, peakRss, peakHeap };
  } finally {
    clearInterval(timer);
  }
}

async function idleStallMs(): Promise<number> {
  const { stallMs } = await withStall(async () => {
    const end = Date.now() + 2000;
    while (Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 0));
  });
  return stallMs;
}

async function main() {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${dbName}"`);
  const work = await mkdtemp(path.join(os.tmpdir(), "yardstick-bench-import-"));
  try {
    await applyMigrations(url.toString());
    process.env.DATABASE_URL = url.toString();
    const { db, disconnectDb } = await import("@/lib/db");
    const { importBatch, readBatchSource } = await import("@/lib/import");

    // the batch: LINES items of one kind sharing three images
    const itemKind = await batchKind();
    const folder = path.join(work, "batch");
    await mkdir(path.join(folder, "img"), { recursive: true });
    const images = { [IMAGES.initialImage]: await image("s"), [IMAGES.candidates[0]]: await image("a"), [IMAGES.candidates[1]]: await image("b") };
    for (const [name, bytes] of Object.entries(images)) await writeFile(path.join(folder, name), bytes);
    const parts: string[] = [];
    for (let n = 0; n < LINES; n++) parts.push(JSON.stringify(itemLine(itemKind, n)));
    const text = `${parts.join("\n")}\n`;
    parts.length = 0;
    await writeFile(path.join(folder, "items.jsonl"), text);
    const zipFile = path.join(work, "batch.zip");
    const zip = new JSZip();
    zip.file("items.jsonl", text);
    for (const [name, bytes] of Object.entries(images)) zip.file(name, bytes);
    await writeFile(zipFile, await zip.generateAsync({ type: "nodebuffer", compression: "DEFLATE" }));
    console.log(`items.jsonl: ${LINES.toLocaleString("en")} lines of kind ${itemKind}, ${mib(Buffer.byteLength(text))}`);

    const runs = (["zip", "folder"] as const).filter((kind) => ONLY === undefined || ONLY === kind);
    for (const [index, kind] of runs.entries()) {
      const slug = `bench-${kind}`;
      await db.study.create({ data: { slug, title: `Bench ${kind}` } });
      const { readFile } = await import("node:fs/promises");
      // the zip is in memory as an upload is (lib/import/jobs.ts gets it as one Buffer)
      const zipBytes = kind === "zip" ? await readFile(zipFile) : null;
      gc();
      await new Promise((resolve) => setTimeout(resolve, 200));
      const idleRss = process.memoryUsage.rss();
      const idleHeap = process.memoryUsage().heapUsed;
      const idleStall = await idleStallMs();
      const started = performance.now();
      const { value: measured, stallMs } = await withStall(() =>
        withPeakMemory(async () => {
          const source = zipBytes ? await readBatchSource({ zip: zipBytes, fileName: "batch.zip" }) : await readBatchSource({ folder });
          return importBatch({ source, studySlug: slug });
        }),
      );
      const seconds = (performance.now() - started) / 1000;
      const result = measured.value;
      const stored = await db.item.count({ where: { study: { slug } } });
      if (result.status !== "imported" || stored !== LINES) throw new Error(`${kind}: expected ${LINES} items stored, got ${stored} (${result.message})`);
      console.log(
        `${index > 0 ? "\n" : ""}from a ${kind}: ${LINES.toLocaleString("en")} items imported in ${seconds.toFixed(1)} s\n` +
          `  peak RSS ${mib(measured.peakRss)} = ${(measured.peakRss / idleRss).toFixed(2)}x the idle process (${mib(idleRss)}); growth ${mib(measured.peakRss - idleRss)}\n` +
          `  peak heap ${mib(measured.peakHeap)} = ${(measured.peakHeap / idleHeap).toFixed(2)}x idle (${mib(idleHeap)}); growth ${mib(measured.peakHeap - idleHeap)}\n` +
          `  longest event-loop stall ${stallMs.toFixed(0)} ms = ${(stallMs / idleStall).toFixed(1)}x a setTimeout(0) loop's (${idleStall.toFixed(1)} ms)`,
      );
    }
    await disconnectDb();
  } finally {
    await rm(work, { recursive: true, force: true });
    await admin.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
    await admin.end();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
