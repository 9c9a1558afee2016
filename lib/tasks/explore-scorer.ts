import { categoryLemmas, categorySimilarity, contentLemmas, nounPhrases, sentences, tokenize, type Token } from "@/lib/tasks/explore-nlp";

/**
 * EXPLORE-Bench's deterministic STRUCTURED SCORER (Yardstick's, not the paper's: the paper scores
 * with Sentence-BERT and a Qwen3-8B judge; see docs/task-kinds.md, "explore-scene"). Reported as
 * "structured scorer" everywhere, never under the paper's metric names alone.
 *
 * - Objects: categories are lemmatised (wink-nlp); the similarity of an annotated and a predicted
 *   category is `categorySimilarity` (1 same lemmas, 0.9 WordNet synonyms, 0.8 direct hypernym,
 *   head noun x modifier factor for phrases, else 0). Matching: mutual maxima of the similarity
 *   matrix (the pair is the largest of its row and of its column, > 0), one to one, repeated on
 *   the unmatched rows and columns until no pair is left, so two annotated bowls can match two
 *   predicted bowls. S_obj = 100 x (sum of matched similarities) / (annotated objects).
 * - Attributes (0-5): for a matched pair, 5 x the share of the annotated description's content
 *   lemmas (nouns, adjectives, verbs, numbers, adverbs; no stop words; the category's own lemmas
 *   left out) found among the predicted object's content lemmas. S_att = mean over matched objects
 *   whose annotated description has content words.
 * - Relations (0-5): an annotated relation "subject predicate object" against each predicted
 *   relation of the matched object scores predicate recall (canonical relation words, e.g. "on top
 *   of" = "on", "beside" = "next to") x object agreement (1 when the relation's object is an
 *   annotated object matched to the predicted relation's object; 0 when the annotated object is
 *   matched to another predicted object, i.e. the relation points at the wrong object; else the
 *   category similarity); the best predicted relation counts, x 5. An object's relation score is
 *   the mean over its annotated relations; S_rel = mean over matched objects with relations.
 * - S_att and S_rel are 0 when nothing matched, and null when matched objects have nothing to
 *   compare (no description words, no relations): S_uni then renormalises the remaining weights.
 * - S_uni = 0.25 S_obj + 0.35 (20 S_att) + 0.40 (20 S_rel); with key states,
 *   S_key = 5 x mean over key states of the best content-lemma recall in any predicted sentence,
 *   S_abn = 0.1 S_uni + 0.9 (20 S_key).
 */

export interface SceneObject {
  category: string;
  description: string;
  relation: string[];
}

export interface ParsedRelation {
  text: string;
  /** the subject as written (a ref "bowl.0" or a category) */
  subject: string;
  predicate: string;
  /** the object as written */
  object: string;
  /** index of the scene object it names, null when it names none */
  objectIndex: number | null;
}

// ---------------------------------------------------------------------------------------------
// Names and relation strings

const normalize = (text: string) => text.trim().replace(/\s+/g, " ").toLowerCase();

/**
 * The refs of a scene's objects: `category.k`, k the 0-based index among the objects of that
 * category in list order ("bowl.0", "bowl.1", "kitchen counter.0").
 */
export function objectRefs(objects: ReadonlyArray<{ category: string }>): string[] {
  const seen = new Map<string, number>();
  return objects.map((object) => {
    const category = normalize(object.category);
    const k = seen.get(category) ?? 0;
    seen.set(category, k + 1);
    return `${category}.${k}`;
  });
}

/**
 * Names that point at an object of the scene: every ref, and the bare category (pointing at the
 * first object of that category; `ambiguous` lists categories with several objects).
 */
export function objectNames(objects: ReadonlyArray<{ category: string }>): { names: Map<string, number>; ambiguous: Set<string> } {
  const names = new Map<string, number>();
  const ambiguous = new Set<string>();
  objectRefs(objects).forEach((ref, i) => {
    names.set(ref, i);
    const category = ref.slice(0, ref.lastIndexOf("."));
    if (names.has(category)) ambiguous.add(category);
    else names.set(category, i);
  });
  return { names, ambiguous };
}

/**
 * Splits "bowl.0 next to kitchen counter.0" into subject, predicate and object with the scene's
 * names: the longest name the text starts with is the subject, the longest name it ends with the
 * object, what lies between the predicate. When the text does not end with a name (the paper's
 * keys name things outside the object list, "bowl on kitchen counter"), the object starts at the
 * first determiner, noun or number after the subject. Returns null when there is no subject name
 * or no predicate.
 */
export function parseRelation(text: string, names: ReadonlyMap<string, number>): ParsedRelation | null {
  const t = normalize(text);
  const byLength = [...names.keys()].sort((a, b) => b.length - a.length);
  const subject = byLength.find((name) => t.startsWith(`${name} `));
  if (subject === undefined) return null;
  const rest = t.slice(subject.length + 1);
  const object = byLength.find((name) => rest.endsWith(` ${name}`) && rest.length > name.length + 1);
  if (object !== undefined) {
    const predicate = rest.slice(0, rest.length - object.length - 1).trim();
    if (predicate === "") return null;
    return { text, subject, predicate, object, objectIndex: names.get(object) ?? null };
  }
  const words = rest.split(" ");
  const tokens = tokenize(rest);
  // first token that starts an object; wink's tokens follow the words closely enough for a split
  const firstObject = tokens.findIndex((token, i) => i > 0 && (token.pos === "DET" || token.pos === "NOUN" || token.pos === "PROPN" || token.pos === "NUM"));
  if (firstObject <= 0 || words.length < 2) return null;
  const cut = Math.min(firstObject, words.length - 1);
  return { text, subject, predicate: words.slice(0, cut).join(" "), object: words.slice(cut).join(" ").replace(/^(the|a|an) /, ""), objectIndex: null };
}

// ---------------------------------------------------------------------------------------------
// Relation words

/** Multi-word and synonymous relation words mapped to one canonical token (longest first). */
const RELATION_SYNONYMS: Array<[RegExp, string]> = [
  [/\bon top of\b/g, "on"],
  [/\b(atop|onto|upon)\b/g, "on"],
  [/\b(inside of|inside|within|into)\b/g, "in"],
  [/\b(next to|close to|adjacent to|beside|besides|near|nearby|by)\b/g, "next_to"],
  [/\b(underneath|beneath|below)\b/g, "under"],
  [/\b(in front of)\b/g, "in_front_of"],
  [/\b(behind|in back of)\b/g, "behind"],
];

const PREDICATE_DROP = new Set(["DET", "AUX", "PRON", "CCONJ", "SCONJ"]);

/** Canonical relation words of a predicate: lemmas without determiners or "be", synonyms merged. */
export function predicateWords(predicate: string): Set<string> {
  let text = tokenize(predicate)
    .filter((token) => !PREDICATE_DROP.has(token.pos) && token.lemma !== "be")
    .map((token) => token.lemma)
    .join(" ");
  for (const [pattern, canonical] of RELATION_SYNONYMS) text = text.replace(pattern, canonical);
  return new Set(text.split(" ").filter((word) => word !== ""));
}

// ---------------------------------------------------------------------------------------------
// Prepared scenes

interface PreparedRelation {
  predicate: Set<string>;
  object: string[];
  objectIndex: number | null;
}

export interface PreparedObject {
  category: string;
  lemmas: string[];
  attributes: Set<string>;
  relations: PreparedRelation[];
  /** free text: indices of the sentences that mention the candidate (sentences(text)); [] for structured objects */
  sentences: number[];
}

function withoutCategory(words: Set<string>, lemmas: readonly string[]): Set<string> {
  const own = new Set(lemmas);
  return new Set([...words].filter((word) => !own.has(word)));
}

export function prepareObjects(objects: readonly SceneObject[]): PreparedObject[] {
  const { names } = objectNames(objects);
  return objects.map((object) => {
    const lemmas = categoryLemmas(object.category);
    return {
      category: object.category,
      lemmas,
      attributes: withoutCategory(contentLemmas(object.description), lemmas),
      sentences: [],
      relations: object.relation.flatMap((text) => {
        const parsed = parseRelation(text, names);
        if (!parsed) return [];
        return [{ predicate: predicateWords(parsed.predicate), object: categoryLemmas(parsed.object), objectIndex: parsed.objectIndex }];
      }),
    };
  });
}

/**
 * Candidate objects of a free-text description (the paper's step 1): the noun phrases of each
 * sentence, one candidate per distinct lemma phrase; its attributes are the content lemmas of the
 * sentences that mention it, its relations every later noun phrase of such a sentence with the
 * words between as the predicate ("the bowl is on the counter" -> bowl, {on}, counter).
 */
export function prepareText(text: string): PreparedObject[] {
  const byKey = new Map<string, PreparedObject>();
  const parsed = sentences(text).map((sentence, index) => {
    const tokens = tokenize(sentence);
    return { tokens, phrases: nounPhrases(tokens, index) };
  });
  parsed.forEach(({ phrases }, sentence) => {
    for (const phrase of phrases) {
      const key = phrase.lemmas.join(" ");
      const candidate = byKey.get(key) ?? { category: key, lemmas: phrase.lemmas, attributes: new Set<string>(), relations: [], sentences: [] };
      byKey.set(key, candidate);
      if (!candidate.sentences.includes(sentence)) candidate.sentences.push(sentence);
    }
  });
  const keys = [...byKey.keys()];
  const content = (tokens: Token[]) => new Set(tokens.filter((token) => ["NOUN", "PROPN", "ADJ", "VERB", "NUM", "ADV"].includes(token.pos) && !token.stop).map((token) => token.lemma));
  for (const { tokens, phrases } of parsed) {
    const words = content(tokens);
    phrases.forEach((phrase, p) => {
      const candidate = byKey.get(phrase.lemmas.join(" "))!;
      for (const word of withoutCategory(words, phrase.lemmas)) candidate.attributes.add(word);
      for (const later of phrases.slice(p + 1)) {
        const between = tokens.slice(phrase.end, later.start).map((token) => token.lemma).join(" ");
        candidate.relations.push({ predicate: predicateWords(between), object: later.lemmas, objectIndex: keys.indexOf(later.lemmas.join(" ")) });
      }
    });
  }
  return [...byKey.values()];
}

// ---------------------------------------------------------------------------------------------
// Matching and scores

export interface MatchedPair {
  annotated: number;
  predicted: number;
  annotatedCategory: string;
  predictedCategory: string;
  similarity: number;
}

/** One-to-one matching by mutual maxima, repeated on what is left (see the module comment). */
export function matchByMutualMaxima(matrix: number[][]): Array<{ annotated: number; predicted: number; similarity: number }> {
  const rows = matrix.length;
  const cols = rows > 0 ? matrix[0].length : 0;
  const usedRows = new Set<number>();
  const usedCols = new Set<number>();
  const pairs: Array<{ annotated: number; predicted: number; similarity: number }> = [];
  for (;;) {
    const found: Array<{ annotated: number; predicted: number; similarity: number }> = [];
    for (let i = 0; i < rows; i++) {
      if (usedRows.has(i)) continue;
      for (let j = 0; j < cols; j++) {
        if (usedCols.has(j)) continue;
        const value = matrix[i][j];
        if (value <= 0) continue;
        let rowMax = true;
        for (let k = 0; k < cols && rowMax; k++) if (!usedCols.has(k) && matrix[i][k] > value) rowMax = false;
        let colMax = true;
        for (let k = 0; k < rows && colMax; k++) if (!usedRows.has(k) && matrix[k][j] > value) colMax = false;
        if (rowMax && colMax) found.push({ annotated: i, predicted: j, similarity: value });
      }
    }
    if (found.length === 0) break;
    found.sort((a, b) => b.similarity - a.similarity || a.annotated - b.annotated || a.predicted - b.predicted);
    for (const pair of found) {
      if (usedRows.has(pair.annotated) || usedCols.has(pair.predicted)) continue;
      usedRows.add(pair.annotated);
      usedCols.add(pair.predicted);
      pairs.push(pair);
    }
  }
  return pairs.sort((a, b) => a.annotated - b.annotated);
}

/** The paper's figures and the object matching: what both scorers report (explore-llm-scorer.ts adds its phrase scores). */
export interface ExploreScoreFigures {
  /** what was scored: the structured objects, or the free text when the answer has no objects */
  source: "objects" | "text";
  S_obj: number;
  S_att: number | null;
  S_rel: number | null;
  S_uni: number;
  S_key?: number;
  S_abn?: number;
  annotatedObjects: number;
  predictedObjects: number;
  matched: MatchedPair[];
  correct: boolean;
}

export interface ExploreStructuredScore extends ExploreScoreFigures {
  scorer: "structured";
}

export const S_UNI_WEIGHTS = { obj: 0.25, att: 0.35, rel: 0.4 } as const;
export const S_ABN_LAMBDA = 0.9;
/** Yardstick's calibration threshold (not the paper's): an answer is "correct" at S_uni >= 60. */
export const EXPLORE_CORRECT_THRESHOLD = 60;

const meanOrNull = (values: number[]) => (values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length);

function recall(wanted: ReadonlySet<string>, have: ReadonlySet<string>): number {
  if (wanted.size === 0) return 0;
  let found = 0;
  for (const word of wanted) if (have.has(word)) found++;
  return found / wanted.size;
}

/** S_uni from its parts; null parts drop out and the remaining weights are renormalised. */
export function unifiedScore(sObj: number, sAtt: number | null, sRel: number | null): number {
  let weighted = S_UNI_WEIGHTS.obj * sObj;
  let weights = S_UNI_WEIGHTS.obj;
  if (sAtt !== null) {
    weighted += S_UNI_WEIGHTS.att * 20 * sAtt;
    weights += S_UNI_WEIGHTS.att;
  }
  if (sRel !== null) {
    weighted += S_UNI_WEIGHTS.rel * 20 * sRel;
    weights += S_UNI_WEIGHTS.rel;
  }
  return weighted / weights;
}

export interface StructuredAnswer {
  objects: SceneObject[];
  text: string;
}

/** The object level shared by every EXPLORE scorer: the prepared scenes, the matched pairs and S_obj. */
export interface ObjectMatching {
  source: "objects" | "text";
  annotated: PreparedObject[];
  predicted: PreparedObject[];
  pairs: Array<{ annotated: number; predicted: number; similarity: number }>;
  /** annotated object index -> matched predicted object index */
  predictedFor: Map<number, number>;
  sObj: number;
  matched: MatchedPair[];
}

/**
 * Objects of an answer (its structured objects, or the candidates of its free text when it has
 * none) matched to the key's: category similarity matrix, mutual maxima, S_obj = 100 x soft coverage.
 */
export function matchObjects(answer: StructuredAnswer, key: { objects: SceneObject[] }): ObjectMatching {
  const source = answer.objects.length > 0 ? "objects" : "text";
  const annotated = prepareObjects(key.objects);
  const predicted = source === "objects" ? prepareObjects(answer.objects) : prepareText(answer.text);
  const matrix = annotated.map((a) => predicted.map((p) => categorySimilarity(a.lemmas, p.lemmas)));
  const pairs = matchByMutualMaxima(matrix);
  const sObj = annotated.length === 0 ? 0 : (100 * pairs.reduce((sum, pair) => sum + pair.similarity, 0)) / annotated.length;
  return {
    source,
    annotated,
    predicted,
    pairs,
    predictedFor: new Map(pairs.map((pair) => [pair.annotated, pair.predicted])),
    sObj,
    matched: pairs.map((pair) => ({ ...pair, annotatedCategory: key.objects[pair.annotated].category, predictedCategory: predicted[pair.predicted].category })),
  };
}

/** The structured scorer: an answer (objects, or free text when it has none) against the key's objects. */
export function scoreStructured(answer: StructuredAnswer, key: { objects: SceneObject[]; keyStates?: string[] }): ExploreStructuredScore {
  const { source, annotated, predicted, pairs, predictedFor, sObj, matched } = matchObjects(answer, key);
  const attScores: number[] = [];
  const relScores: number[] = [];
  for (const pair of pairs) {
    const a = annotated[pair.annotated];
    const p = predicted[pair.predicted];
    if (a.attributes.size > 0) attScores.push(5 * recall(a.attributes, p.attributes));
    if (a.relations.length > 0) {
      const perRelation = a.relations.map((relation) => {
        const target = relation.objectIndex === null ? undefined : predictedFor.get(relation.objectIndex);
        let best = 0;
        for (const candidate of p.relations) {
          let objectAgreement: number;
          if (target !== undefined) objectAgreement = candidate.objectIndex === target ? 1 : 0;
          else objectAgreement = categorySimilarity(relation.object, candidate.object);
          const predicateShare = relation.predicate.size === 0 ? 1 : recall(relation.predicate, candidate.predicate);
          best = Math.max(best, predicateShare * objectAgreement);
        }
        return 5 * best;
      });
      relScores.push(perRelation.reduce((x, y) => x + y, 0) / perRelation.length);
    }
  }
  const sAtt = pairs.length === 0 ? 0 : meanOrNull(attScores);
  const sRel = pairs.length === 0 ? 0 : meanOrNull(relScores);
  const sUni = unifiedScore(sObj, sAtt, sRel);
  const score: ExploreStructuredScore = {
    scorer: "structured",
    source,
    S_obj: sObj,
    S_att: sAtt,
    S_rel: sRel,
    S_uni: sUni,
    annotatedObjects: annotated.length,
    predictedObjects: predicted.length,
    matched,
    correct: sUni >= EXPLORE_CORRECT_THRESHOLD,
  };
  if (key.keyStates && key.keyStates.length > 0) {
    const said = [
      ...sentences(answer.text),
      ...answer.objects.flatMap((object) => [`${object.category} ${object.description}`, ...object.relation]),
    ].map(contentLemmas);
    const perState = key.keyStates.map((state) => {
      const wanted = contentLemmas(state);
      return Math.max(0, ...said.map((words) => recall(wanted, words)));
    });
    score.S_key = (5 * perState.reduce((x, y) => x + y, 0)) / perState.length;
    score.S_abn = (1 - S_ABN_LAMBDA) * sUni + S_ABN_LAMBDA * 20 * score.S_key;
  }
  return score;
}
