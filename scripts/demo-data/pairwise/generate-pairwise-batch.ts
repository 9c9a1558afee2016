import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { CLIP_FPS, CLIP_PROMPTS, writeClip, type ClipFlaw, type ClipPrompt } from "@/scripts/demo-data/clips";
import { copyDemoClip } from "@/scripts/demo-data/media/demo-clip";

/**
 * The pairwise demo batch: three drawn generators (gen-a clean, gen-b with physics flaws, gen-c
 * noisy) on two prompts, every pair of generators per prompt (6 items), and one pair of the real
 * demo clip (a WebM file, scripts/demo-data/media/, as media.video; model "reference") against
 * gen-b's ball, with a SYNTHETIC automatic metric per side (item field `metric`) for the
 * dashboard's correlation. Writes <outDir>/items.jsonl, the frames under <outDir>/clips/ and the
 * clip as <outDir>/video/demo-ball.webm.
 */

export const PAIRWISE_DIMENSIONS = [
  { id: "quality", label: "Visual quality", hint: "clean, sharp frames" },
  { id: "physics", label: "Physical plausibility", hint: "objects fall, nothing passes through" },
  { id: "instruction", label: "Follows the prompt" },
];

const GENERATORS: Record<string, { flaw: Record<ClipPrompt, ClipFlaw>; metric: number }> = {
  "gen-a": { flaw: { ball: "none", cube: "none" }, metric: 0.82 },
  "gen-b": { flaw: { ball: "float", cube: "ignore" }, metric: 0.74 },
  "gen-c": { flaw: { ball: "noisy", cube: "noisy" }, metric: 0.61 },
};
/** the real demo clip (the ball prompt done right), its SYNTHETIC automatic score */
const REFERENCE = { model: "reference", metric: 0.9 } as const;

export async function generatePairwiseDemoBatch({ outDir }: { outDir: string }): Promise<{ items: number }> {
  await mkdir(outDir, { recursive: true });
  const clipsDir = path.join(outDir, "clips");
  const lines: string[] = [];
  const names = Object.keys(GENERATORS);
  const ballFrames: Record<string, string[]> = {};
  for (const prompt of ["ball", "cube"] as const) {
    const frames: Record<string, string[]> = {};
    for (const name of names)
      frames[name] = (await writeClip(clipsDir, `${prompt}-${name}`, prompt, GENERATORS[name].flaw[prompt], name.length + prompt.length)).map(
        (frame) => `clips/${frame}`,
      );
    if (prompt === "ball") Object.assign(ballFrames, frames);
    for (let x = 0; x < names.length; x++) {
      for (let y = x + 1; y < names.length; y++) {
        const [a, b] = [names[x], names[y]];
        const media = (name: string) => ({ frames: frames[name], fps: CLIP_FPS });
        lines.push(
          JSON.stringify({
            id: `pair-${prompt}-${a}-${b}`,
            kind: "pairwise",
            public: {
              question: `Prompt: ${CLIP_PROMPTS[prompt]} Which video is better?`,
              a: media(a),
              b: media(b),
              dimensions: PAIRWISE_DIMENSIONS,
              models: { a, b },
              metric: { name: "SYNTHETIC auto score", a: GENERATORS[a].metric, b: GENERATORS[b].metric },
            },
            key: {},
            tags: { prompt },
          }),
        );
      }
    }
  }
  // the real clip (a video file) beside gen-b's drawn frames
  lines.push(
    JSON.stringify({
      id: `pair-ball-${REFERENCE.model}-gen-b`,
      kind: "pairwise",
      public: {
        question: `Prompt: ${CLIP_PROMPTS.ball} Which video is better?`,
        a: { video: await copyDemoClip(outDir) },
        b: { frames: ballFrames["gen-b"], fps: CLIP_FPS },
        dimensions: PAIRWISE_DIMENSIONS,
        models: { a: REFERENCE.model, b: "gen-b" },
        metric: { name: "SYNTHETIC auto score", a: REFERENCE.metric, b: GENERATORS["gen-b"].metric },
      },
      key: {},
      tags: { prompt: "ball" },
    }),
  );
  await writeFile(path.join(outDir, "items.jsonl"), lines.join("\n") + "\n");
  return { items: lines.length };
}
