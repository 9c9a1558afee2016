import { llmChat, LlmScorerError } from "@/lib/scoring/llm-chat";
import type { KindLlmScoring } from "@/lib/scoring/kind-scoring";
import { CORRECT_FROM_GRADE, freeTextKeySchema, freeTextPublicSchema, parseFreeTextAnswer } from "@/lib/tasks/free-text";
import { JUDGE_ASPECT, JUDGE_PROMPT_VERSION, judgePhrase, judgeRequestBody, judgeSettingsFromEnv, judgeVersion, parseJudgeGrade, parseJudgeVersion, readJudgePhrase } from "@/lib/tasks/free-text/judge";
import { freeTextGradeRecord, isFreeTextGradeRecord } from "@/lib/tasks/free-text/grades";
import { referencesOf } from "@/lib/tasks/shared/llm-match/rubric";

/**
 * The free-text LLM judge in the background scoring jobs (lib/scoring/llm-jobs.ts): one request
 * per answer (question, references, answer), its grade cached by (model, version with temperature
 * and seed, question and references, answer), stored as a FreeTextGradeRecord in ScorerResult.
 */
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
  promptVersion: () => judgeVersion(judgeSettingsFromEnv()),
  isCurrentVersion: (version) => parseJudgeVersion(version)?.prompt === JUDGE_PROMPT_VERSION,
  async ask(config, request, promptVersion) {
    const settings = parseJudgeVersion(promptVersion);
    if (!settings) throw new LlmScorerError(`"${promptVersion}" is not a free-text judge version`, false);
    const { question, references } = readJudgePhrase(request.phrase);
    const { content, text } = await llmChat(config, judgeRequestBody(config.model, config.thinking, settings, question, references, request.sentence));
    const grade = parseJudgeGrade(text);
    if (grade === null) throw new LlmScorerError(`judge reply ${JSON.stringify(content.slice(0, 80))} holds no 1-5 grade`, false);
    return { score: grade, reply: content };
  },
  correctOf: (score) => (isFreeTextGradeRecord(score) ? score.grade >= CORRECT_FROM_GRADE : null),
};
