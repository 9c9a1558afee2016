import type { Letter } from "@/lib/tasks/shared/gridwm/common";

/** Views of the GridWM kinds as their modules' publicView() gives them (lib/tasks/gridwm-*.ts). */
export interface NextObsView {
  observation?: string;
  candidates?: string[];
  /** the release's composite image (o_t and the lettered 2x2 candidates) instead of the two above */
  image?: string;
  action: string;
  actionText: string;
  mission?: string;
}

export interface SceneView {
  image: string;
  mission?: string;
  gridSize?: [number, number];
  /** what the image shows: the whole grid with its axes, or the agent's own view (default) */
  frame?: "full-grid" | "egocentric";
  dirEncoding: "spec" | "minigrid";
  directions: string[];
}

export interface JudgeView {
  storyboard: string;
  mission?: string;
  actions?: string[];
  preamble?: string;
}

export const CHOICE_LETTERS: readonly Letter[] = ["A", "B", "C", "D"];

/** The letter a key names: 1-4 or A-D (either case); null otherwise. */
export function letterOfKey(key: string): Letter | null {
  if (/^[1-4]$/.test(key)) return CHOICE_LETTERS[Number(key) - 1];
  const upper = key.toUpperCase();
  return key.length === 1 && (CHOICE_LETTERS as readonly string[]).includes(upper) ? (upper as Letter) : null;
}

/** Storyboards are 4 frames a row (build_exam.py); K = 8 frames, so 2 rows. */
export const STORYBOARD_COLUMNS = 4;
export const STORYBOARD_FRAMES = 8;

/** CSS background placement that shows one frame of a storyboard of `frames` frames, 4 a row. */
export function frameCrop(frame: number, frames = STORYBOARD_FRAMES): { backgroundSize: string; backgroundPosition: string } {
  const rows = Math.ceil(frames / STORYBOARD_COLUMNS);
  const column = frame % STORYBOARD_COLUMNS;
  const row = Math.floor(frame / STORYBOARD_COLUMNS);
  const x = STORYBOARD_COLUMNS > 1 ? (column * 100) / (STORYBOARD_COLUMNS - 1) : 0;
  const y = rows > 1 ? (row * 100) / (rows - 1) : 0;
  return { backgroundSize: `${STORYBOARD_COLUMNS * 100}% ${rows * 100}%`, backgroundPosition: `${x}% ${y}%` };
}
