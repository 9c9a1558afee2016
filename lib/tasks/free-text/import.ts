import type { ImportIssue, ItemLine, ItemsFile } from "@/lib/import/types";
import { FREE_TEXT_KIND, freeTextKeySchema, freeTextPublicSchema } from "@/lib/tasks/free-text";
import { MEDIA_CAPS } from "@/lib/tasks/shared/media/schema";
import type { ReleaseFolderFormat, ReleaseImportOptions } from "@/lib/tasks/types";
import { jsonEntryLines } from "@/lib/import/json-positions";

/**
 * OpenEQA's release (facebookresearch/open-eqa data/open-eqa-v0.json): one JSON array of questions
 * `{question, answer, category, question_id, episode_history, extra_answers?}`. Each becomes a
 * free-text item: id = question_id, public.question, key {answer, extraAnswers}, tags {category,
 * episode, source: "openeqa"}. The episode's frames are the stimulus when the batch holds them
 * (the frames OpenEQA's extract-frames scripts write, `frames/<episode_history>/` or
 * `<episode_history>/` beside the JSON: the `*-rgb.*` images when there are such, else every
 * image, in name order, played at OPENEQA_FPS; more than MEDIA_CAPS.frames are thinned evenly);
 * without them the question is imported as text alone (tag media: "none").
 */

export const OPENEQA_SOURCE = "openeqa";
/** frames per second the episode's frames are played at (OpenEQA's release gives none; Yardstick's choice) */
export const OPENEQA_FPS = 5;

const IMAGE = /\.(png|jpe?g|webp)$/i;

interface OpenEqaQuestion {
  question: unknown;
  answer: unknown;
  category?: unknown;
  question_id?: unknown;
  episode_history?: unknown;
  extra_answers?: unknown;
}

/** True for a parsed JSON value that is OpenEQA's release: an array whose first element has question_id, question, answer, episode_history. */
export function isOpenEqaRelease(value: unknown): boolean {
  if (!Array.isArray(value) || value.length === 0) return false;
  const first = value[0] as Record<string, unknown> | null;
  return (
    first !== null &&
    typeof first === "object" &&
    typeof first.question_id === "string" &&
    typeof first.question === "string" &&
    "answer" in first &&
    typeof first.episode_history === "string"
  );
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch {
    return undefined;
  }
}

/** The episode's frames among the batch's files (paths relative to the batch root), [] when it has none. */
export function episodeFrames(episode: string, dir: string, files: readonly string[]): string[] {
  const clean = episode.replace(/^\/+|\/+$/g, "");
  for (const prefix of [`${dir}frames/${clean}/`, `${dir}${clean}/`]) {
    const images = files.filter((file) => file.startsWith(prefix) && IMAGE.test(file)).sort();
    if (images.length === 0) continue;
    const rgb = images.filter((file) => /-rgb\.[a-z]+$/i.test(file));
    const chosen = rgb.length > 0 ? rgb : images;
    if (chosen.length <= MEDIA_CAPS.frames) return chosen;
    const step = chosen.length / MEDIA_CAPS.frames;
    return Array.from({ length: MEDIA_CAPS.frames }, (_, i) => chosen[Math.floor(i * step)]);
  }
  return [];
}

/** The items and issues of one release file; `files` are the batch's files (for the frames). */
export function convertOpenEqaRelease(
  text: string,
  path: string,
  files: readonly string[],
  options: ReleaseImportOptions = {},
): { items: Array<{ line: number; item: ItemLine }>; issues: ImportIssue[] } {
  const parsed = parseJson(text);
  if (!Array.isArray(parsed)) return { items: [], issues: [{ file: path, message: "not OpenEQA's release: expected a JSON array of questions" }] };
  const dir = path.includes("/") ? path.slice(0, path.lastIndexOf("/") + 1) : "";
  const items: Array<{ line: number; item: ItemLine }> = [];
  const issues: ImportIssue[] = [];
  const seen = new Map<string, number>();
  const lines = jsonEntryLines(text);
  const withoutFrames = new Set<string>();
  parsed.forEach((raw: unknown, index) => {
    const line = lines[index]?.line ?? index + 1;
    const entry = index + 1;
    const issue = (field: string, message: string) => issues.push({ file: path, line, entry, field: `[${index}].${field}`, message });
    if (raw === null || typeof raw !== "object" || Array.isArray(raw))
      return void issues.push({ file: path, line, entry, field: `[${index}]`, message: "expected a question object" });
    const question = raw as OpenEqaQuestion;
    if (typeof question.question_id !== "string" || question.question_id.trim() === "") return void issue("question_id", "expected a non-empty string");
    const id = question.question_id.trim();
    const first = seen.get(id);
    if (first !== undefined) return void issue("question_id", `duplicate question_id ${JSON.stringify(id)} (first at entry ${first})`);
    seen.set(id, entry);
    if (
      question.extra_answers !== undefined &&
      !(Array.isArray(question.extra_answers) && question.extra_answers.every((answer) => typeof answer === "string"))
    )
      return void issue("extra_answers", "expected a list of strings");
    const key = freeTextKeySchema.safeParse({
      answer: question.answer,
      ...(question.extra_answers !== undefined ? { extraAnswers: question.extra_answers } : {}),
    });
    if (!key.success) {
      const problem = key.error.issues[0];
      return void issue(
        problem.path[0] === "extraAnswers"
          ? `extra_answers${problem.path
              .slice(1)
              .map((part) => `[${String(part)}]`)
              .join("")}`
          : "answer",
        problem.code === "too_small" && problem.path[0] === "extraAnswers" ? "an extra answer is empty" : problem.message,
      );
    }
    if (question.category !== undefined && typeof question.category !== "string") return void issue("category", "expected a string");
    if (question.episode_history !== undefined && typeof question.episode_history !== "string") return void issue("episode_history", "expected a string");
    const episode = typeof question.episode_history === "string" ? question.episode_history : null;
    const frames = episode ? episodeFrames(episode, dir, files) : [];
    if (episode && frames.length === 0) withoutFrames.add(episode);
    const publicPart = freeTextPublicSchema.safeParse({ question: question.question, ...(frames.length > 0 ? { media: { frames, fps: OPENEQA_FPS } } : {}) });
    if (!publicPart.success) return void issue("question", publicPart.error.issues[0].message);
    items.push({
      line,
      item: {
        id,
        kind: FREE_TEXT_KIND,
        public: publicPart.data,
        key: key.data,
        tags: {
          source: OPENEQA_SOURCE,
          ...(typeof question.category === "string" ? { category: question.category } : {}),
          ...(episode ? { episode } : {}),
          media: frames.length > 0 ? "frames" : "none",
        },
      },
    });
  });
  // missing media refuses the batch, one issue naming the episodes, unless text only was chosen
  if (withoutFrames.size > 0 && !options.textOnly) {
    const shown = [...withoutFrames].slice(0, 10);
    issues.push({
      file: path,
      message:
        `the frames of ${withoutFrames.size} episode${withoutFrames.size === 1 ? "" : "s"} are not in the batch (frames/<episode_history>/ or <episode_history>/ beside ${path}): ` +
        `${shown.join(", ")}${withoutFrames.size > shown.length ? `, ... (${withoutFrames.size - shown.length} more)` : ""}; add them, or choose "text only" to import the questions without them`,
    });
  }
  return { items, issues };
}

export const openEqaFormat: ReleaseFolderFormat = {
  id: OPENEQA_SOURCE,
  benchmark: "OpenEQA",
  offersTextOnly: true,
  async find(files, read) {
    const found: ItemsFile[] = [];
    for (const file of [...files].sort()) {
      if (!/\.json$/i.test(file)) continue;
      const bytes = await read(file);
      // a cheap look at the start before parsing a large file
      if (
        !/^\s*\[\s*\{/.test(
          bytes
            .subarray(0, 64)
            .toString("utf8")
            .replace(/^\uFEFF/, ""),
        )
      )
        continue;
      if (!isOpenEqaRelease(parseJson(bytes.toString("utf8")))) continue;
      const dir = file.includes("/") ? file.slice(0, file.lastIndexOf("/") + 1) : "";
      found.push({ path: file, format: OPENEQA_SOURCE, files: files.filter((other) => other.startsWith(dir) && IMAGE.test(other)) });
    }
    return found;
  },
  isSingleFile: (bytes) => isOpenEqaRelease(parseJson(bytes.toString("utf8"))),
  convert: (text, file, _readText, options) => Promise.resolve(convertOpenEqaRelease(text, file.path, file.files ?? [], options)),
};
