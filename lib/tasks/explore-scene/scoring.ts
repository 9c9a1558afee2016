import type { KindLlmScoring, KindRescoring } from "@/lib/scoring/kind-scoring";
import { exploreSceneKeySchema, parseExploreModelAnswer } from "@/lib/tasks/explore-scene";
import { embeddingMatrixFor } from "@/lib/tasks/shared/explore/embed";
import { embedModelOf, isCurrentPromptVersion, llmPhraseScore, llmPromptVersion, type LlmAspect } from "@/lib/tasks/shared/explore/llm";
import { finishExploreLlmScore, objectSentences, planExploreLlmScore } from "@/lib/tasks/shared/explore/llm-scorer";
import { sentences as splitSentences } from "@/lib/tasks/shared/explore/nlp";
import { EXPLORE_STRUCTURED_VERSION, scoreStructured } from "@/lib/tasks/shared/explore/scorer";

/** EXPLORE-Bench's LLM scorer (lib/tasks/shared/explore/llm-scorer.ts) in the background scoring jobs. */
export const llm: KindLlmScoring = {
  async plan(storedAnswer, storedKey, embedding) {
    const key = exploreSceneKeySchema.parse(storedKey);
    const answer = parseExploreModelAnswer(storedAnswer);
    if (!answer) throw new Error("the stored answer holds neither objects nor text");
    const similarity = embedding ? await embeddingMatrixFor(embedding.embedder, embedding.vectors, answer, key) : undefined;
    const plan = planExploreLlmScore(answer, key, similarity);
    return { requests: plan.requests, finish: (scores, meta) => finishExploreLlmScore(plan, scores, meta) };
  },
  // the sentences planExploreLlmScore joins into its requests' sentences
  answerTexts: (storedAnswer) => {
    const answer = parseExploreModelAnswer(storedAnswer);
    if (!answer) return [];
    return answer.objects.length > 0 ? objectSentences(answer.objects).sentences : splitSentences(answer.text);
  },
  promptVersion: (embedModel) => llmPromptVersion(embedModel),
  embedModelOf,
  isCurrentVersion: isCurrentPromptVersion,
  ask: (config, request) => llmPhraseScore(config, request.sentence, request.phrase, request.aspect as LlmAspect),
};

/** Stored structured scores of an older scorer version, rescored with the current one. */
export const rescore: KindRescoring = {
  scorer: "structured scorer",
  version: EXPLORE_STRUCTURED_VERSION,
  rescore(storedAnswer, storedKey) {
    const key = exploreSceneKeySchema.safeParse(storedKey);
    const answer = parseExploreModelAnswer(storedAnswer);
    if (!key.success || !answer) return null;
    const score = scoreStructured(answer, key.data);
    return { score, correct: score.correct };
  },
};
