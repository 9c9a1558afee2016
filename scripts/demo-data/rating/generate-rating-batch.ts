import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { CLIP_FPS, CLIP_PROMPTS, writeClip, type ClipFlaw, type ClipPrompt } from "@/scripts/demo-data/clips";
import { copyDemoClip } from "@/scripts/demo-data/media/demo-clip";

/**
 * The rating demo batch: four drawn "generated videos" (two prompts x two generators, frames at
 * 8 fps, cutAt on one) and the real demo clip (a WebM file, scripts/demo-data/media/, as
 * media.video: the ball prompt done right, tagged model "reference"), rated on a
 * WorldModelBench-style rubric (instruction following 0-3 with anchors; physics checks; a
 * common-sense frame-quality check). Writes <outDir>/items.jsonl, the frames under <outDir>/clips/,
 * the clip as <outDir>/video/demo-ball.webm, and a SYNTHETIC judge run's answers.
 */

export const RATING_RUBRIC = [
  {
    id: "instruction",
    type: "likert",
    dimension: "instruction",
    label: "Instruction following: does the video do what the prompt says?",
    min: 0,
    max: 3,
    anchors: { "0": "not at all", "1": "barely", "2": "mostly", "3": "fully" },
  },
  {
    id: "gravity",
    type: "check",
    dimension: "physics",
    label: "Do objects fall as gravity would make them?",
    hint: "Nothing floats up or hangs in the air.",
    pass: "yes",
  },
  { id: "penetration", type: "check", dimension: "physics", label: "Does an object pass through another?", hint: "e.g. through the table top", pass: "no" },
  { id: "quality", type: "check", dimension: "commonsense", label: "Are the frames clean (no noise or artefacts)?", pass: "yes" },
] as const;

const CLIPS: Array<{ id: string; prompt: ClipPrompt; model: string; flaw: ClipFlaw; cutAt?: number; judge: Record<string, number | string> }> = [
  { id: "wmb-ball-gen-a", prompt: "ball", model: "gen-a", flaw: "none", judge: { instruction: 3, gravity: "yes", penetration: "no", quality: "yes" } },
  { id: "wmb-ball-gen-b", prompt: "ball", model: "gen-b", flaw: "float", judge: { instruction: 1, gravity: "yes", penetration: "no", quality: "yes" } },
  {
    id: "wmb-cube-gen-a",
    prompt: "cube",
    model: "gen-a",
    flaw: "noisy",
    cutAt: 1.75,
    judge: { instruction: 3, gravity: "yes", penetration: "no", quality: "yes" },
  },
  { id: "wmb-cube-gen-b", prompt: "cube", model: "gen-b", flaw: "ignore", judge: { instruction: 2, gravity: "yes", penetration: "no", quality: "yes" } },
];
/** the real demo clip: a ball rolls off a table and falls to the floor, as the ball prompt asks */
const REFERENCE = {
  id: "wmb-ball-reference",
  prompt: "ball",
  model: "reference",
  judge: { instruction: 3, gravity: "yes", penetration: "no", quality: "yes" },
} as const;

export async function generateRatingDemoBatch({ outDir }: { outDir: string }): Promise<{ items: number; run: { name: string; file: string; jsonl: string } }> {
  await mkdir(outDir, { recursive: true });
  const lines: string[] = [];
  for (const clip of CLIPS) {
    const frames = await writeClip(path.join(outDir, "clips"), clip.id, clip.prompt, clip.flaw, clip.id.length);
    lines.push(
      JSON.stringify({
        id: clip.id,
        kind: "rating",
        public: {
          question: "Rate the generated video",
          media: {
            text: `Prompt: ${CLIP_PROMPTS[clip.prompt]}`,
            frames: frames.map((frame) => `clips/${frame}`),
            fps: CLIP_FPS,
            ...(clip.cutAt ? { cutAt: clip.cutAt } : {}),
          },
          rubric: RATING_RUBRIC,
        },
        key: {},
        tags: { model: clip.model, prompt: clip.prompt },
      }),
    );
  }
  lines.push(
    JSON.stringify({
      id: REFERENCE.id,
      kind: "rating",
      public: {
        question: "Rate the video",
        media: { text: `Prompt: ${CLIP_PROMPTS[REFERENCE.prompt]}`, video: await copyDemoClip(outDir) },
        rubric: RATING_RUBRIC,
      },
      key: {},
      tags: { model: REFERENCE.model, prompt: REFERENCE.prompt },
    }),
  );
  await writeFile(path.join(outDir, "items.jsonl"), lines.join("\n") + "\n");
  const jsonl = [...CLIPS, REFERENCE].map((clip) => JSON.stringify({ id: clip.id, answer: { ratings: clip.judge } })).join("\n") + "\n";
  return { items: lines.length, run: { name: "SYNTHETIC VLM judge", file: "synthetic-judge.jsonl", jsonl } };
}
