import type { ImportIssue, ItemLine, ItemsFile } from "@/lib/import/types";
import type { ReleaseFolderFormat } from "@/lib/tasks/types";
import { jsonEntryLines, lineAt } from "@/lib/import/json-positions";

/**
 * Two video benchmarks' releases read as they are, into `choice` items:
 *
 * - EgoSchema (egoschema/EgoSchema): `questions.json`, a list of {q_uid, question, "option 0" ...
 *   "option 4"} (also `google_drive_id`), and beside it, when present, `subset_answers.json`
 *   {q_uid: 0-4}, the 500 answers made public. Questions without an answer are imported without a
 *   key (the rest are scored on the Kaggle leaderboard: lib/tasks/choice/submission.ts writes its
 *   format). The video is `videos/<q_uid>.mp4` beside questions.json. Option ids "0"-"4".
 * - Perception Test, multiple-choice video QA (google-deepmind/perception_test, README's field
 *   tables): a JSON object {video_id: {metadata: {video_id, frame_rate, ...}, mc_question: [{id,
 *   question, options (3), answer_id, area, reasoning, tag}]}}, in files named like
 *   `mc_question_valid.json` or `all_valid.json`. Option ids "0"-"2"; no answer_id (the test split):
 *   no key. Tags area, reasoning, tag (joined with ", "), video_id. The video is
 *   `videos/<video_id>.mp4` beside the file; with `cut_frame_mapping_<split>.json` beside it
 *   ({video_id: frame}) the clip ends there (`cutAt` = frame / frame_rate).
 */

const isPlainObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === "object" && !Array.isArray(value);
const dirOf = (path: string) => (path.includes("/") ? path.slice(0, path.lastIndexOf("/") + 1) : "");
const baseOf = (path: string) => path.slice(path.lastIndexOf("/") + 1);

type Converted = { items: Array<{ line: number; item: ItemLine }>; issues: ImportIssue[] };

function parseJson(text: string, file: string): { value: unknown } | { issue: ImportIssue } {
  try {
    return { value: JSON.parse(text.replace(/^\uFEFF/u, "")) };
  } catch (error) {
    return { issue: { file, message: `not valid JSON (${error instanceof Error ? error.message : String(error)})` } };
  }
}

const TEXT_MAX = 8_000;
function textField(entry: Record<string, unknown>, field: string): string | null {
  const value = entry[field];
  return typeof value === "string" && value.trim() !== "" && value.length <= TEXT_MAX ? value : null;
}

export const EGOSCHEMA_OPTIONS = 5;

export const egoschemaFormat: ReleaseFolderFormat = {
  id: "egoschema",
  benchmark: "EgoSchema",
  offersTextOnly: true,
  find(files) {
    const found: ItemsFile[] = files
      .filter((path) => baseOf(path) === "questions.json")
      .map((path) => {
        const answers = `${dirOf(path)}subset_answers.json`;
        return { path, format: "egoschema", ...(files.includes(answers) ? { files: [answers] } : {}) };
      });
    return Promise.resolve(found);
  },
  async convert(text, file, readText, importOptions): Promise<Converted> {
    const parsed = parseJson(text, file.path);
    if ("issue" in parsed) return { items: [], issues: [parsed.issue] };
    if (!Array.isArray(parsed.value)) return { items: [], issues: [{ file: file.path, message: "expected a list of questions" }] };
    let answers: Record<string, unknown> = {};
    const answersFile = file.files?.[0];
    if (answersFile) {
      const answersText = await readText(answersFile, "answers file");
      if (answersText === null) return { items: [], issues: [] };
      const read = parseJson(answersText, answersFile);
      if ("issue" in read) return { items: [], issues: [read.issue] };
      if (!isPlainObject(read.value)) return { items: [], issues: [{ file: answersFile, message: "expected an object {q_uid: answer 0-4}" }] };
      answers = read.value;
    }
    const items: Converted["items"] = [];
    const issues: ImportIssue[] = [];
    const dir = dirOf(file.path);
    const lines = jsonEntryLines(text.replace(/^\uFEFF/u, ""));
    let keysMatched = 0;
    parsed.value.forEach((entry: unknown, index) => {
      const line = lines[index]?.line ?? index + 1;
      const at = (field: string, message: string) => issues.push({ file: file.path, line, entry: index + 1, field: `[${index}].${field}`, message });
      if (!isPlainObject(entry)) return at("(entry)", "expected a question object");
      const uid = entry.q_uid;
      if (typeof uid !== "string" || !/^[A-Za-z0-9-]{1,100}$/u.test(uid)) return at("q_uid", "expected the question's uid");
      const question = textField(entry, "question");
      if (question === null) return at("question", "expected the question text");
      const options: Array<{ id: string; text: string }> = [];
      for (let i = 0; i < EGOSCHEMA_OPTIONS; i++) {
        const option = textField(entry, `option ${i}`);
        if (option === null) return at(`option ${i}`, "expected the option's text");
        options.push({ id: String(i), text: option });
      }
      if (Object.hasOwn(answers, uid)) keysMatched++;
      const keyed = Object.hasOwn(answers, uid) ? answers[uid] : entry.correct_answer;
      if (keyed !== undefined && !(Number.isInteger(keyed) && (keyed as number) >= 0 && (keyed as number) < EGOSCHEMA_OPTIONS)) {
        return issues.push(
          Object.hasOwn(answers, uid)
            ? { file: answersFile ?? file.path, field: uid, message: "expected an answer 0-4" }
            : { file: file.path, line, entry: index + 1, field: `[${index}].correct_answer`, message: "expected an answer 0-4" },
        );
      }
      items.push({
        line,
        item: {
          id: uid,
          kind: "choice",
          // text only (chosen): no video, so none is looked for
          public: { question, options, ...(importOptions?.textOnly ? {} : { media: { video: `${dir}videos/${uid}.mp4` } }) },
          key: keyed === undefined ? {} : { answer: String(keyed) },
          tags: { source: "egoschema", keyed: keyed !== undefined },
        },
      });
    });
    // A keys file is there to score the questions: one that keys none of them is the wrong file (another
    // subset, another split), and importing would leave every question silently unscored. Refused:
    // take the file out to import the questions without keys.
    const keys = Object.keys(answers);
    if (answersFile && keys.length > 0 && parsed.value.length > 0 && keysMatched === 0) {
      issues.push({
        file: answersFile,
        message: `keys none of the ${parsed.value.length} questions of ${file.path} (its ${keys.length} q_uids are other questions'); remove it to import the questions without keys`,
      });
    }
    return { items, issues };
  },
};

const PT_FILE = /(^|\/)(mc_question[^/]*|all_(train|valid|test))\.json$/u;

export const perceptionTestFormat: ReleaseFolderFormat = {
  id: "perception-test-mc",
  benchmark: "Perception Test",
  offersTextOnly: true,
  find(files) {
    const found: ItemsFile[] = files
      .filter((path) => PT_FILE.test(path) && !baseOf(path).startsWith("cut_frame_mapping"))
      .map((path) => {
        const split = /(train|valid|test)/u.exec(baseOf(path))?.[1];
        const cut = split ? `${dirOf(path)}cut_frame_mapping_${split}.json` : null;
        return { path, format: "perception-test-mc", ...(cut && files.includes(cut) ? { files: [cut] } : {}) };
      });
    return Promise.resolve(found);
  },
  async convert(text, file, readText, importOptions): Promise<Converted> {
    const parsed = parseJson(text, file.path);
    if ("issue" in parsed) return { items: [], issues: [parsed.issue] };
    if (!isPlainObject(parsed.value)) return { items: [], issues: [{ file: file.path, message: "expected an object {video_id: {metadata, mc_question}}" }] };
    let cuts: Record<string, unknown> = {};
    const cutFile = file.files?.[0];
    if (cutFile) {
      const cutText = await readText(cutFile, "cut frame mapping");
      if (cutText === null) return { items: [], issues: [] };
      const read = parseJson(cutText, cutFile);
      if ("issue" in read) return { items: [], issues: [read.issue] };
      if (isPlainObject(read.value)) cuts = read.value;
    }
    const items: Converted["items"] = [];
    const issues: ImportIssue[] = [];
    const dir = dirOf(file.path);
    const lines = jsonEntryLines(text.replace(/^\uFEFF/u, ""));
    let line = 0;
    let videoIndex = -1;
    for (const [videoKey, video] of Object.entries(parsed.value)) {
      videoIndex++;
      const questionsAt = isPlainObject(video) ? Object.keys(video).indexOf("mc_question") : -1;
      // the place of the video's entry, or of its question `index` inside it
      const placeOf = (index?: number) => {
        const found = index === undefined ? lineAt(lines, [videoIndex]) : lineAt(lines, [videoIndex, questionsAt, index]);
        return { entry: videoIndex + 1, ...(found !== undefined ? { line: found } : {}) };
      };
      const at = (field: string, message: string, index?: number) =>
        issues.push({ file: file.path, ...placeOf(index), field: `${videoKey}.${field}`, message });
      if (!isPlainObject(video)) {
        at("(video)", "expected {metadata, mc_question}");
        continue;
      }
      const metadata = isPlainObject(video.metadata) ? video.metadata : {};
      const videoId = typeof metadata.video_id === "string" ? metadata.video_id : videoKey;
      if (!/^[A-Za-z0-9_-]{1,100}$/u.test(videoId)) {
        at("metadata.video_id", "expected the video id");
        continue;
      }
      const questions = video.mc_question;
      if (questions === undefined) continue;
      if (!Array.isArray(questions)) {
        at("mc_question", "expected a list of questions");
        continue;
      }
      const frameRate = typeof metadata.frame_rate === "number" && metadata.frame_rate > 0 ? metadata.frame_rate : null;
      const cutFrame = cuts[videoId];
      const cutAt = frameRate !== null && typeof cutFrame === "number" && cutFrame > 0 ? cutFrame / frameRate : undefined;
      questions.forEach((entry: unknown, index) => {
        line++;
        const field = (name: string) => `mc_question[${index}].${name}`;
        if (!isPlainObject(entry)) return at(field("(question)"), "expected a question object", index);
        const qid = entry.id;
        if (!(typeof qid === "number" && Number.isInteger(qid)) && !(typeof qid === "string" && qid !== ""))
          return at(field("id"), "expected the question id", index);
        const question = textField(entry, "question");
        if (question === null) return at(field("question"), "expected the question text", index);
        const options = entry.options;
        if (
          !Array.isArray(options) ||
          options.length < 2 ||
          options.length > 9 ||
          !options.every((o) => typeof o === "string" && o.trim() !== "" && o.length <= 2_000)
        ) {
          return at(field("options"), "expected 2-9 option texts", index);
        }
        const answerId = entry.answer_id;
        const keyed = Number.isInteger(answerId) && (answerId as number) >= 0;
        if (keyed && (answerId as number) >= options.length) return at(field("answer_id"), `expected 0-${options.length - 1}`, index);
        const tagList = Array.isArray(entry.tag) ? entry.tag.filter((t): t is string => typeof t === "string") : [];
        items.push({
          line: placeOf(index).line ?? line,
          item: {
            id: `${videoId}/${String(qid)}`,
            kind: "choice",
            public: {
              question,
              options: (options as string[]).map((text, i) => ({ id: String(i), text })),
              ...(importOptions?.textOnly ? {} : { media: { video: `${dir}videos/${videoId}.mp4`, ...(cutAt !== undefined ? { cutAt } : {}) } }),
            },
            key: keyed ? { answer: String(answerId) } : {},
            tags: {
              source: "perception-test",
              video_id: videoId,
              question_id: String(qid),
              keyed,
              ...(typeof entry.area === "string" ? { area: entry.area } : {}),
              ...(typeof entry.reasoning === "string" ? { reasoning: entry.reasoning } : {}),
              ...(tagList.length > 0 ? { tag: tagList.join(", ").slice(0, 500) } : {}),
            },
          },
        });
      });
    }
    return { items, issues };
  },
};
