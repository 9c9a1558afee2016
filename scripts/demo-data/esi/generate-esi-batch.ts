/**
 * Deterministic ESI-Bench demo batch (scripts/demo-data/esi/esi-scenes.ts): five small rooms drawn in first
 * person (scripts/demo-data/esi/esi-render.ts), six `esi-explore` items with exploration graphs, reference
 * trajectories and multi-view galleries.
 *
 *   npx tsx scripts/demo-data/esi/generate-esi-batch.ts <outDir>
 *
 * Writes <outDir>/items.jsonl and <outDir>/img/<room>/<pose>.png. Same code, same bytes.
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import sharp from "sharp";
import { buildEsiDemo, type EsiDemoItem } from "@/scripts/demo-data/esi/esi-scenes";
import { clearPreviousImages, mapLimit } from "@/scripts/demo-data/batch-files";

const MARKER = ".demo-esi-batch";

export async function svgToPng(svg: string): Promise<Buffer> {
  return sharp(Buffer.from(svg)).png({ palette: true, colours: 128, compressionLevel: 9, effort: 4, dither: 0 }).toBuffer();
}

export interface GenerateEsiDemoBatchResult {
  outDir: string;
  items: EsiDemoItem[];
  images: number;
  bytes: number;
  ms: number;
}

/** Generates the batch into outDir (items.jsonl and img/**); a previous run's img/ is replaced. */
export async function generateEsiDemoBatch(options: { outDir: string; maxSteps?: number }): Promise<GenerateEsiDemoBatchResult> {
  const started = performance.now();
  const { outDir } = options;
  const built = buildEsiDemo({ maxSteps: options.maxSteps });
  await mkdir(outDir, { recursive: true });
  await clearPreviousImages(outDir, MARKER);
  await writeFile(path.join(outDir, MARKER), "written by scripts/demo-data/esi/generate-esi-batch.ts\n");
  for (const dir of new Set(built.images.map((image) => path.dirname(image.path)))) await mkdir(path.join(outDir, dir), { recursive: true });
  const sizes = await mapLimit(built.images, 4, async (image) => {
    const png = await svgToPng(image.svg);
    await writeFile(path.join(outDir, image.path), png);
    return png.length;
  });
  const jsonl = built.items.map((item) => JSON.stringify(item)).join("\n") + "\n";
  await writeFile(path.join(outDir, "items.jsonl"), jsonl);
  return {
    outDir,
    items: built.items,
    images: built.images.length,
    bytes: Buffer.byteLength(jsonl) + sizes.reduce((sum, size) => sum + size, 0),
    ms: Math.round(performance.now() - started),
  };
}

async function main(argv: string[]): Promise<void> {
  if (argv.length !== 1 || argv[0].startsWith("-")) {
    console.error("usage: npx tsx scripts/demo-data/esi/generate-esi-batch.ts <outDir>");
    process.exit(2);
  }
  const result = await generateEsiDemoBatch({ outDir: argv[0] });
  console.log(
    `wrote ${result.items.length} items and ${result.images} images to ${result.outDir} in ${result.ms} ms (${(result.bytes / 1024).toFixed(0)} KiB)`,
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
