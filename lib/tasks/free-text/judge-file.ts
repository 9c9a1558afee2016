import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { isGrade, type Grade } from "@/lib/tasks/shared/llm-match/rubric";

/**
 * A benchmark's own judge prompt, read from the researcher's file at run time (never copied into
 * the project): OpenEQA grades with prompts/mmbench.txt, and prompts/mmbench-extra.txt for
 * questions with extra answers (openeqa/evaluation/llm_match.py), so LLM-Match scores are
 * comparable with published OpenEQA numbers only with those files and its settings. Set
 * FREE_TEXT_JUDGE_PROMPT_FILE (and FREE_TEXT_JUDGE_PROMPT_EXTRA_FILE for items with extra answers)
 * to the files' paths: each is read as load_prompt reads it (whole, stripped), filled as Python's
 * str.format fills it ({question}, {answer}, {prediction}, {extra_answers} as a Python list), sent
 * as the one user message, and the reply read as parse_score reads it. The files' sha256 go into
 * the judge's version, so every grade and cached reply records which prompt gave it.
 */

export interface PromptFile {
  path: string;
  text: string;
  sha256: string;
}

export interface PromptFileJudge {
  main: PromptFile;
  /** for items with extra answers; null when not configured (such items then cannot be graded) */
  extra: PromptFile | null;
}

/** OpenEQA's judge settings (get_llm_match_score's defaults): temperature 0.2, seed 1234, at most 32 tokens. */
export const OPENEQA_JUDGE_SETTINGS = { temperature: 0.2, seed: 1234, maxTokens: 32 } as const;

/** The version's prompt id of a prompt file judge: "file:<sha256>[,<sha256 of the extra file>]". */
export const PROMPT_FILE_PREFIX = "file:";

function readPromptFile(path: string, variable: string): PromptFile {
  let raw: string;
  try {
    raw = readFileSync(path, "utf8");
  } catch (error) {
    throw new Error(`cannot read the judge prompt file ${variable}=${path}: ${(error as Error).message}`);
  }
  const text = raw.trim();
  return { path, text, sha256: createHash("sha256").update(text, "utf8").digest("hex") };
}

/** The prompt files the environment names, read now; null when FREE_TEXT_JUDGE_PROMPT_FILE is unset (Yardstick's own prompt). */
export function promptFileJudge(env: Record<string, string | undefined> = process.env): PromptFileJudge | null {
  const main = env.FREE_TEXT_JUDGE_PROMPT_FILE?.trim();
  if (!main) return null;
  const extra = env.FREE_TEXT_JUDGE_PROMPT_EXTRA_FILE?.trim();
  return { main: readPromptFile(main, "FREE_TEXT_JUDGE_PROMPT_FILE"), extra: extra ? readPromptFile(extra, "FREE_TEXT_JUDGE_PROMPT_EXTRA_FILE") : null };
}

export function promptFileId(judge: PromptFileJudge): string {
  return `${PROMPT_FILE_PREFIX}${judge.main.sha256}${judge.extra ? `,${judge.extra.sha256}` : ""}`;
}

/** The sha256 of the prompt files a version's prompt id names (main, then extra), or null for Yardstick's own prompt. */
export function promptFileHashes(promptId: string): string[] | null {
  return promptId.startsWith(PROMPT_FILE_PREFIX) ? promptId.slice(PROMPT_FILE_PREFIX.length).split(",") : null;
}

/** A string as Python's repr() writes it: single quotes, unless it holds one and no double quote. */
function pythonRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = "";
  for (const char of text) {
    if (char === "\\") out += "\\\\";
    else if (char === quote) out += `\\${quote}`;
    else if (char === "\n") out += "\\n";
    else if (char === "\r") out += "\\r";
    else if (char === "\t") out += "\\t";
    else out += char;
  }
  return `${quote}${out}${quote}`;
}

/** A list of strings as Python's str() of a list writes it: ['a', "it's"]. */
export function pythonListRepr(items: readonly string[]): string {
  return `[${items.map(pythonRepr).join(", ")}]`;
}

export interface PromptFields {
  question: string;
  answer: string;
  prediction: string;
  extraAnswers: readonly string[] | null;
}

/** Python's str.format of the template with these keyword fields ({{ and }} stay literal braces); throws on another field. */
export function fillPromptTemplate(template: string, fields: PromptFields): string {
  const values: Record<string, string> = {
    question: fields.question,
    answer: fields.answer,
    prediction: fields.prediction,
    extra_answers: fields.extraAnswers === null ? "None" : pythonListRepr(fields.extraAnswers),
  };
  return template.replace(/\{\{|\}\}|\{([^{}]*)\}/g, (match, name: string | undefined) => {
    if (match === "{{") return "{";
    if (match === "}}") return "}";
    if (name === undefined || !Object.hasOwn(values, name))
      throw new Error(`the judge prompt file asks for the field {${name ?? ""}}, which is none of question, answer, prediction, extra_answers`);
    return values[name];
  });
}

const MARK_TAG = "Your mark:";

/**
 * The grade in a reply as OpenEQA's parse_score reads it: the whole reply digits, or the integer
 * after "Your mark:" up to the end of its line; null where parse_score raises, or for an integer
 * outside 1-5 (LLM-Match's scale).
 */
export function parseMarkReply(reply: string): Grade | null {
  const read = (text: string): number | null => (/^\s*[+-]?\d+\s*$/.test(text) ? Number.parseInt(text, 10) : null);
  let value: number | null;
  if (/^\d+$/.test(reply)) value = Number(reply);
  else {
    const start = reply.indexOf(MARK_TAG);
    if (start < 0) return null;
    const end = reply.indexOf("\n", start);
    value = read((end < 0 ? reply.slice(start) : reply.slice(start, end)).replace(MARK_TAG, ""));
  }
  return value !== null && isGrade(value) ? value : null;
}
