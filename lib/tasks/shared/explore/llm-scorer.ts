import { sentences as splitSentences } from "@/lib/tasks/shared/explore/nlp";
import {
  EXPLORE_CORRECT_THRESHOLD,
  keyStatesOf,
  matchObjects,
  objectNames,
  objectRefs,
  parseRelation,
  partScore,
  relationTarget,
  S_ABN_LAMBDA,
  unifiedScore,
  type ExploreScoreFigures,
  type MatchedPair,
  type SceneObject,
  type SimilarityMatrix,
  type StructuredAnswer,
} from "@/lib/tasks/shared/explore/scorer";
import type { LlmAspect } from "@/lib/tasks/shared/explore/llm";

/**
 * EXPLORE-Bench's LLM scorer, the pure side: which (sentence, phrase) pairs an answer needs scored
 * and how the 0-5 replies become S_att, S_rel, S_uni (and S_key, S_abn). Reported as "LLM scorer
 * (<model>)", never under the paper's name: the prompts are the paper's, the rest is Yardstick's.
 *
 * - Objects: the structured scorer's object level (explore-scorer.ts matchObjects: one row per
 *   annotated category, one pass of mutual maxima), with lemma/WordNet similarity, or with the
 *   embeddings' cosine when an embedder is configured (SCORER_EMBED_URL, the paper's
 *   all-MiniLM-L6-v2; explore-embed.ts); S_obj is then the structured scorer's figure with the same similarity.
 * - The predicted sentences: free text is split into sentences (wink-nlp) and a candidate object
 *   is mentioned by the sentences holding its noun phrase (the paper's step 1). Structured objects
 *   become one sentence each ("The bowl is white ceramic, on the kitchen counter and next to the
 *   sink."), an object is mentioned by its own sentence and by those whose relations point at it,
 *   and a candidate (the answer's objects of one category) by its objects' sentences.
 * - Every request carries the paper's system prompt (Listing 8) and one user prompt: attributes
 *   (Listing 9), relations (Listing 10), key states (Listing 11).
 * - Attributes: per annotated object with a description, the sentences mentioning the candidate
 *   its category matched against the description; S_att = mean over those objects (0 unmatched).
 * - Relations: per annotated relation, the sentences mentioning the subject's candidate and the
 *   relation object's candidate (as CompreCap does) against the relation; an object's score is
 *   the mean over its relations, S_rel the mean over annotated objects with relations (0 unmatched).
 * - With no sentence to show a phrase scores 0 without a request; a part with nothing to compare
 *   (the key has no descriptions, or no relations) is S_obj / 20, as in the structured scorer, so
 *   S_uni is Eq. 1 on every answer's own parts.
 * - Key states (Sec. 6: "in the same way as we evaluate object attributes"): a key state of an
 *   object, the sentences mentioning the candidate that object's category matched, with the
 *   "states" prompt (Listing 11); a key state of the scene (no object), the whole description.
 *   S_key = mean, S_abn = 0.1 S_uni + 0.9 (20 S_key).
 */

export interface LlmPhraseRequest {
  aspect: LlmAspect;
  sentence: string;
  phrase: string;
}

export interface ExploreLlmPlan {
  source: "objects" | "text";
  S_obj: number;
  matched: MatchedPair[];
  annotatedObjects: number;
  predictedObjects: number;
  /** distinct requests, in the order first needed */
  requests: LlmPhraseRequest[];
  /** per annotated object with a description: the request scoring it, null = 0 (unmatched, or nothing mentions it) */
  attributes: Array<{ annotated: number; request: number | null }>;
  /** per annotated relation */
  relations: Array<{ annotated: number; relation: string; request: number | null }>;
  /** per key state (abnormal cases), empty otherwise */
  keyStates: Array<{ state: string; request: number | null }>;
}

export interface ExploreLlmScore extends ExploreScoreFigures {
  scorer: "llm";
  model: string;
  promptVersion: string;
  attributes: Array<{ object: string; score: number }>;
  relations: Array<{ relation: string; score: number }>;
  keyStates?: Array<{ state: string; score: number }>;
}

const displayName = (ref: string) => ref.replace(/\.\d+$/, "");

/**
 * One sentence per structured object, as the annotator's page writes its description: "The bowl is
 * white ceramic, on the kitchen counter and next to the sink." / "There is a sink.", with the
 * indices of the sentences that mention each object (its own, and those relating to it).
 */
export function objectSentences(objects: readonly SceneObject[]): { sentences: string[]; mentions: number[][] } {
  const { names, byCategory } = objectNames(objects);
  const refs = objectRefs(objects);
  const mentions = objects.map((_, i) => [i]);
  const sentences = objects.map((object, i) => {
    const name = displayName(refs[i]);
    const description = object.description.trim().replace(/[.\s]+$/, "");
    const clauses = object.relation.map((text) => {
      const parsed = parseRelation(text, names);
      if (!parsed) return text.trim();
      const index = relationTarget(parsed, i, byCategory);
      if (index !== null && index !== i && !mentions[index].includes(i)) mentions[index].push(i);
      const target = index !== null ? displayName(refs[index]) : parsed.object;
      return `${parsed.predicate} the ${target}`;
    });
    if (description === "" && clauses.length === 0) return `There is a ${name}.`;
    return `The ${name} is ${[description, clauses.join(" and ")].filter(Boolean).join(", ")}.`;
  });
  return { sentences, mentions: mentions.map((list) => list.sort((a, b) => a - b)) };
}

/** What the LLM is asked for one answer against one key (no request is sent here). */
export function planExploreLlmScore(
  answer: StructuredAnswer,
  key: { objects: SceneObject[]; keyStates?: ReadonlyArray<string | { state: string; object: number }> },
  similarity?: SimilarityMatrix,
): ExploreLlmPlan {
  const matching = matchObjects(answer, key, similarity);
  const structured = matching.source === "objects" ? objectSentences(answer.objects) : null;
  const sentences = structured ? structured.sentences : splitSentences(answer.text);
  // the sentences mentioning each candidate: its objects' sentences, or its noun phrase's sentences
  const mentions = matching.predicted.map((candidate) =>
    structured ? candidate.members.flatMap((member) => structured.mentions[member] ?? []) : candidate.sentences,
  );

  const requests: LlmPhraseRequest[] = [];
  const index = new Map<string, number>();
  const ask = (aspect: LlmAspect, sentenceIndices: Iterable<number>, phrase: string): number | null => {
    const chosen = [...new Set(sentenceIndices)].sort((a, b) => a - b).map((i) => sentences[i]);
    const sentence = chosen.join(" ").trim();
    if (sentence === "" || phrase.trim() === "") return null;
    const id = JSON.stringify([aspect, sentence, phrase]);
    let at = index.get(id);
    if (at === undefined) {
      at = requests.length;
      requests.push({ aspect, sentence, phrase });
      index.set(id, at);
    }
    return at;
  };

  const { names, byCategory } = objectNames(key.objects);
  const attributes: ExploreLlmPlan["attributes"] = [];
  const relations: ExploreLlmPlan["relations"] = [];
  key.objects.forEach((object, i) => {
    const candidate = matching.predictedFor.get(i);
    const own = candidate === undefined ? [] : (mentions[candidate] ?? []);
    if (object.description.trim() !== "")
      attributes.push({ annotated: i, request: candidate === undefined ? null : ask("attributes", own, object.description.trim()) });
    for (const relation of object.relation) {
      if (relation.trim() === "") continue;
      if (candidate === undefined) {
        relations.push({ annotated: i, relation: relation.trim(), request: null });
        continue;
      }
      const parsed = parseRelation(relation, names);
      const targetObject = parsed ? relationTarget(parsed, i, byCategory) : null;
      const target = targetObject === null ? undefined : matching.predictedFor.get(targetObject);
      const other = target === undefined ? [] : (mentions[target] ?? []);
      relations.push({ annotated: i, relation: relation.trim(), request: ask("relations", [...own, ...other], relation.trim()) });
    }
  });
  const everything = sentences.map((_, i) => i);
  const keyStates = keyStatesOf(key).map(({ state, object }) => {
    if (object === null) return { state, request: ask("states", everything, state) };
    const candidate = matching.predictedFor.get(object);
    return { state, request: candidate === undefined ? null : ask("states", mentions[candidate] ?? [], state) };
  });

  return {
    source: matching.source,
    S_obj: matching.sObj,
    matched: matching.matched,
    annotatedObjects: matching.annotated.length,
    predictedObjects: matching.predicted.length,
    requests,
    attributes,
    relations,
    keyStates,
  };
}

const mean = (values: number[]) => (values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length);

/** The score from the replies: `scores[i]` is the 0-5 reply to `plan.requests[i]`. */
export function finishExploreLlmScore(plan: ExploreLlmPlan, scores: readonly number[], meta: { model: string; promptVersion: string }): ExploreLlmScore {
  if (scores.length !== plan.requests.length) throw new Error(`finishExploreLlmScore needs ${plan.requests.length} scores, got ${scores.length}`);
  const value = (request: number | null) => (request === null ? 0 : scores[request]);
  const attScores = plan.attributes.map((entry) => value(entry.request));
  const perObject = new Map<number, number[]>();
  for (const entry of plan.relations) perObject.set(entry.annotated, [...(perObject.get(entry.annotated) ?? []), value(entry.request)]);
  const relScores = [...perObject.values()].map((list) => mean(list)!);
  const sAtt = partScore(attScores, plan.S_obj);
  const sRel = partScore(relScores, plan.S_obj);
  const sUni = unifiedScore(plan.S_obj, sAtt, sRel);
  const score: ExploreLlmScore = {
    scorer: "llm",
    model: meta.model,
    promptVersion: meta.promptVersion,
    source: plan.source,
    S_obj: plan.S_obj,
    S_att: sAtt,
    S_rel: sRel,
    S_uni: sUni,
    annotatedObjects: plan.annotatedObjects,
    predictedObjects: plan.predictedObjects,
    matched: plan.matched,
    attributes: plan.attributes.map((entry) => ({
      object: plan.matched.find((pair) => pair.annotated === entry.annotated)?.annotatedCategory ?? "(unmatched)",
      score: value(entry.request),
    })),
    relations: plan.relations.map((entry) => ({ relation: entry.relation, score: value(entry.request) })),
    correct: sUni >= EXPLORE_CORRECT_THRESHOLD,
  };
  if (plan.keyStates.length > 0) {
    score.keyStates = plan.keyStates.map((entry) => ({ state: entry.state, score: value(entry.request) }));
    score.S_key = mean(score.keyStates.map((entry) => entry.score))!;
    score.S_abn = (1 - S_ABN_LAMBDA) * sUni + S_ABN_LAMBDA * 20 * score.S_key;
  }
  return score;
}
