import { llmChat, LlmScorerError } from "@/lib/scoring/llm-chat";
import type { KindLlmScoring } from "@/lib/scoring/kind-scoring";
import { CORRECT_FROM_GRADE, freeTextKeySchema, freeTextScoreOf, freeTextPublicSchema, parseFreeTextAnswer } from "@/lib/tasks/free-text";
import {
  isJudgeVersion,
  JUDGE_ASPECT,
  judgePhrase,
  judgeRequestBody,
  judgeSettingsFromEnv,
  judgeVersion,
  parseJudgeGrade,
  parseJudgeVersion,
  readJudgePhrase,
} from "@/lib/tasks/free-text/judge";
import { fillPromptTemplate, parseMarkReply, promptFileHashes, promptFileJudge } from "@/lib/tasks/free-text/judge-file";
import { freeTextGradeRecord, isFreeTextGradeRecord } from "@/lib/tasks/free-text/grades";
import { referencesOf } from "@/lib/tasks/shared/llm-match/rubric";

/**
 * The free-text LLM judge in the background scoring jobs (lib/scoring/llm-jobs.ts): one request
 * per answer (question, references, answer), its grade cached by (model, version with the prompt,
 * temperature and seed, question and references, answer), stored as a FreeTextGradeRecord in
 * ScorerResult. With a benchmark's prompt file (lib/tasks/free-text/judge-file.ts) the file is
 * read again for each request and must still be the one the job's version names.
 */

/** The request body with the benchmark's prompt file: the filled template as the one user message, its settings. */
function promptFileRequest(
  model: string,
  thinking: boolean | undefined,
  promptVersion: string,
  question: string,
  references: readonly string[],
  answer: string,
): Record<string, unknown> {
  const settings = parseJudgeVersion(promptVersion)!;
  const hashes = promptFileHashes(settings.prompt)!;
  let judge;
  try {
    judge = promptFileJudge();
  } catch (error) {
    throw new LlmScorerError((error as Error).message, false);
  }
  if (!judge || judge.main.sha256 !== hashes[0] || (hashes[1] !== undefined && judge.extra?.sha256 !== hashes[1])) {
    throw new LlmScorerError(
      `the judge prompt file configured now (FREE_TEXT_JUDGE_PROMPT_FILE${hashes[1] ? ", FREE_TEXT_JUDGE_PROMPT_EXTRA_FILE" : ""}) is not the one this job's version names (sha256 ${hashes.join(", ")}); start a new job`,
      false,
    );
  }
  const extraAnswers = references.slice(1);
  const template = extraAnswers.length > 0 ? judge.extra?.text : judge.main.text;
  if (template === undefined)
    throw new LlmScorerError(
      "this question has extra answers: set FREE_TEXT_JUDGE_PROMPT_EXTRA_FILE to the benchmark's prompt for them (OpenEQA: prompts/mmbench-extra.txt)",
      false,
    );
  let content: string;
  try {
    content = fillPromptTemplate(template, {
      question,
      answer: references[0],
      prediction: answer,
      extraAnswers: extraAnswers.length > 0 ? extraAnswers : null,
    });
  } catch (error) {
    throw new LlmScorerError((error as Error).message, false);
  }
  return {
    model,
    temperature: settings.temperature,
    seed: settings.seed,
    ...(settings.maxTokens !== undefined ? { max_tokens: settings.maxTokens } : {}),
    messages: [{ role: "user", content }],
    ...(thinking ? {} : { chat_template_kwargs: { enable_thinking: false } }),
  };
}

export const llm: KindLlmScoring = {
  async plan(storedAnswer, storedKey, _embedding, storedPublic) {
    const key = freeTextKeySchema.parse(storedKey);
    const answer = parseFreeTextAnswer(storedAnswer);
    if (!answer) throw new Error("the stored answer holds no text");
    return {
      requests: [{ aspect: JUDGE_ASPECT, phrase: judgePhrase(freeTextPublicSchema.parse(storedPublic).question, referencesOf(key)), sentence: answer.text }],
      finish: (scores, meta) => freeTextGradeRecord(scores[0], meta.model, meta.promptVersion, referencesOf(key).length),
    };
  },
  answerTexts: (storedAnswer) => {
    const answer = parseFreeTextAnswer(storedAnswer);
    return answer ? [answer.text] : [];
  },
  promptVersion: () => judgeVersion(judgeSettingsFromEnv()),
  isCurrentVersion: isJudgeVersion,
  async ask(config, request, promptVersion) {
    const settings = parseJudgeVersion(promptVersion);
    if (!settings || !isJudgeVersion(promptVersion)) throw new LlmScorerError(`"${promptVersion}" is not a free-text judge version`, false);
    const { question, references } = readJudgePhrase(request.phrase);
    const fromFile = promptFileHashes(settings.prompt) !== null;
    const body = fromFile
      ? promptFileRequest(config.model, config.thinking, promptVersion, question, references, request.sentence)
      : judgeRequestBody(config.model, config.thinking, settings, question, references, request.sentence);
    const { content, text } = await llmChat(config, body);
    // the benchmark's prompt: its parse_score reading of the reply (OpenEQA reads the raw reply)
    const grade = fromFile ? parseMarkReply(content) : parseJudgeGrade(text);
    if (grade === null)
      throw new LlmScorerError(
        `judge reply ${JSON.stringify(content.slice(0, 80))} holds no 1-5 grade${fromFile ? ' as the benchmark reads it (digits alone, or after "Your mark:")' : ""}`,
        false,
      );
    return { score: grade, reply: content };
  },
  answerScoreOf: (score) => (isFreeTextGradeRecord(score) ? { score: freeTextScoreOf(score.grade), correct: score.grade >= CORRECT_FROM_GRADE } : null),
};
