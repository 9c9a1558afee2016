import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { fillPromptTemplate, parseMarkReply, promptFileJudge, pythonListRepr } from "@/lib/tasks/free-text/judge-file";
import { judgeSettingsFromEnv, judgeVersion, parseJudgeVersion } from "@/lib/tasks/free-text/judge";

const fixtures = path.join(import.meta.dirname, "__fixtures__");
const main = path.join(fixtures, "stand-in-prompt.txt");
const extra = path.join(fixtures, "stand-in-prompt-extra.txt");

describe("a benchmark's own judge prompt file", () => {
  it("is filled as Python's str.format fills it, extra answers as a Python list", () => {
    const template = readFileSync(extra, "utf8").trim();
    const filled = fillPromptTemplate(template, { question: "Is it overcast?", answer: "no", prediction: "yes", extraAnswers: ["doesn't look like it", "no"] });
    expect(filled).toContain(`Extra Answers: ["doesn't look like it", 'no']`);
    expect(filled).toContain("{braces} stay literal");
    expect(filled.endsWith("Response: yes\nYour mark:")).toBe(true);
    expect(pythonListRepr(["a\\b", 'it\'s "x"'])).toBe(`['a\\\\b', 'it\\'s "x"']`);
    expect(() => fillPromptTemplate("Question: {question} {unknown}", { question: "q", answer: "a", prediction: "p", extraAnswers: null })).toThrow(/unknown/);
  });

  it("reads the reply as OpenEQA's parse_score: digits alone, or the integer after 'Your mark:' on its line", () => {
    expect(parseMarkReply("4")).toBe(4);
    expect(parseMarkReply("Reasoning...\nYour mark: 5\nthanks")).toBe(5);
    expect(parseMarkReply("Your mark: 2")).toBe(2);
    expect(parseMarkReply("Grade: 4")).toBeNull();
    expect(parseMarkReply("Your mark: four")).toBeNull();
    expect(parseMarkReply("Your mark: 7")).toBeNull();
  });

  it("is configured by its path: its sha256 goes into the judge's version, with OpenEQA's settings as defaults", () => {
    const judge = promptFileJudge({ FREE_TEXT_JUDGE_PROMPT_FILE: main, FREE_TEXT_JUDGE_PROMPT_EXTRA_FILE: extra })!;
    expect(judge.main.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(judge.extra!.sha256).toMatch(/^[0-9a-f]{64}$/);
    const settings = judgeSettingsFromEnv({ FREE_TEXT_JUDGE_PROMPT_FILE: main, FREE_TEXT_JUDGE_PROMPT_EXTRA_FILE: extra });
    expect(settings).toMatchObject({ temperature: 0.2, seed: 1234, maxTokens: 32 });
    const version = judgeVersion(settings);
    expect(parseJudgeVersion(version)).toMatchObject({ prompt: `file:${judge.main.sha256},${judge.extra!.sha256}`, temperature: 0.2, seed: 1234 });
    // without a file: Yardstick's own prompt
    expect(promptFileJudge({})).toBeNull();
    expect(judgeVersion(judgeSettingsFromEnv({}))).toBe("llm-match-v2;temperature=0;seed=0");
  });
});
