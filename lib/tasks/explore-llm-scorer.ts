import { sentences as splitSentences } from "@/lib/tasks/explore-nlp";
import { EXPLORE_CORRECT_THRESHOLD, matchObjects, objectNames, objectRefs, parseRelation, S_ABN_LAMBDA, unifiedScore, type ExploreScoreFigures, type MatchedPair, type SceneObject, type StructuredAnswer } from "@/lib/tasks/explore-scorer";
import type { LlmAspect } from "@/lib/tasks/explore-llm";

/**
 * EXPLORE-Bench's LLM scorer, the pure side: which (sentence, phrase) pairs an answer needs scored
 * and how the 0-5 replies become S_att, S_rel, S_uni (and S_key, S_abn). Reported as "LLM scorer
 * (<model>)", never under the paper's name: the prompts are the paper's, the rest is Yardstick's.
 *
 * - Objects: the paper matches candidate nouns to annotated categories with a sentence embedder
 *   (Sentence-BERT all-MiniLM-L6-v2). No embedder runs here, so the LLM path keeps the structured
 *   scorer's object level (explore-scorer.ts matchObjects: lemmas, WordNet, mutual maxima); S_obj
 *   is the same number under both scorers and only S_att, S_rel (and S_key) come from the LLM.
 * - The predicted sentences: free text is split into sentences (wink-nlp) and a candidate object
 *   is mentioned by the sentences holding its noun phrase (the paper's step 1). Structured objects
 *   become one sentence each ("The bowl is white ceramic, on the kitchen counter and next to the
 *   sink."), and an object is mentioned by its own sentence and by those whose relations point at it.
 * - Attributes: per matched annotated object with a description, the sentences mentioning its
 *   match against the description ("attributes" prompt); S_att = mean over those objects.
 * - Relations: per annotated relation of a matched object, the sentences mentioning its match and
 *   the match of the relation's object (as CompreCap does) against the relation ("relations"
 *   prompt); an object's score is the mean over its relations, S_rel the mean over objects.
 * - With no sentence to show (nothing mentions the match) a phrase scores 0 without a request; with
 *   no match at all S_att and S_rel are 0; null (nothing to compare) parts drop out of S_uni.
 * - Key states (abnormal cases; explore.md quotes no prompt for them): the whole description
 *   against each key state with the "attributes" prompt; S_key = mean, S_abn = 0.1 S_uni + 0.9 (20 S_key).
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
  /** per matched annotated object with a description: the request scoring it, null = 0 */
  attributes: Array<{ annotated: number; request: number | null }>;
  /** per annotated relation of a matched object */
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
  const { names } = objectNames(objects);
  const refs = objectRefs(objects);
  const mentions = objects.map((_, i) => [i]);
  const sentences = objects.map((object, i) => {
    const name = displayName(refs[i]);
    const description = object.description.trim().replace(/[.\s]+$/, "");
    const clauses = object.relation.map((text) => {
      const parsed = parseRelation(text, names);
      if (!parsed) return text.trim();
      if (parsed.objectIndex !== null && parsed.objectIndex !== i && !mentions[parsed.objectIndex].includes(i)) mentions[parsed.objectIndex].push(i);
      const target = parsed.objectIndex !== null ? displayName(refs[parsed.objectIndex]) : parsed.object;
      return `${parsed.predicate} the ${target}`;
    });
    if (description === "" && clauses.length === 0) return `There is a ${name}.`;
    return `The ${name} is ${[description, clauses.join(" and ")].filter(Boolean).join(", ")}.`;
  });
  return { sentences, mentions: mentions.map((list) => list.sort((a, b) => a - b)) };
}

/** What the LLM is asked for one answer against one key (no request is sent here). */
export function planExploreLlmScore(answer: StructuredAnswer, key: { objects: SceneObject[]; keyStates?: string[] }): ExploreLlmPlan {
  const matching = matchObjects(answer, key);
  const { sentences, mentions } =
    matching.source === "objects" ? objectSentences(answer.objects) : { sentences: splitSentences(answer.text), mentions: matching.predicted.map((p) => p.sentences) };

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

  const { names } = objectNames(key.objects);
  const attributes: ExploreLlmPlan["attributes"] = [];
  const relations: ExploreLlmPlan["relations"] = [];
  for (const pair of matching.pairs) {
    const object = key.objects[pair.annotated];
    const own = mentions[pair.predicted] ?? [];
    if (object.description.trim() !== "") attributes.push({ annotated: pair.annotated, request: ask("attributes", own, object.description.trim()) });
    for (const relation of object.relation) {
      if (relation.trim() === "") continue;
      const parsed = parseRelation(relation, names);
      const target = parsed?.objectIndex !== null && parsed?.objectIndex !== undefined ? matching.predictedFor.get(parsed.objectIndex) : undefined;
      const other = target === undefined ? [] : (mentions[target] ?? []);
      relations.push({ annotated: pair.annotated, relation: relation.trim(), request: ask("relations", [...own, ...other], relation.trim()) });
    }
  }
  const everything = sentences.map((_, i) => i);
  const keyStates = (key.keyStates ?? []).map((state) => ({ state, request: ask("attributes", everything, state) }));

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
  const none = plan.matched.length === 0;
  const sAtt = none ? 0 : mean(attScores);
  const sRel = none ? 0 : mean(relScores);
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
    attributes: plan.attributes.map((entry) => ({ object: plan.matched.find((pair) => pair.annotated === entry.annotated)?.annotatedCategory ?? "?", score: value(entry.request) })),
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
