import { categoryLemmas, categorySimilarity, contentLemmas, nounPhrases, sentences, tokenize, type Token } from "@/lib/tasks/shared/explore/nlp";

/**
 * EXPLORE-Bench's deterministic STRUCTURED SCORER (Yardstick's, not the paper's: the paper scores
 * with Sentence-BERT and a Qwen3-8B judge; see docs/task-kinds.md, "explore-scene"). Reported as
 * "structured scorer" everywhere, never under the paper's metric names alone.
 *
 * - Candidates: the answer's objects merged by category (lemmas), as the paper's candidate objects
 *   are the distinct nouns of the description; a candidate's attributes and relations are those of
 *   all its objects (the paper concatenates every sub-description of one object). Free text: one
 *   candidate per distinct noun phrase.
 * - Objects: categories are lemmatised (wink-nlp); the similarity of an annotated and a predicted
 *   category is `categorySimilarity` (1 same lemmas, 0.9 WordNet synonyms, 0.8 direct hypernym,
 *   WordNet's most frequent sense only; head noun x modifier factor for phrases; else 0), or, with
 *   an embedder, the embeddings' cosine (explore-embed.ts). The matrix has one row per annotated
 *   *category* (unique) and one column per candidate; one pass of mutual maxima (a cell that is the
 *   largest of its row and of its column, > 0) refines it, and S_obj = 100 x (sum over categories
 *   of the refined row's value) / (annotated categories): the paper's soft coverage.
 * - Attributes (0-5): per annotated object with description words, 5 x the share of its content
 *   lemmas (nouns, adjectives, verbs, numbers, adverbs; no stop words; the category's own lemmas
 *   left out) found among the content lemmas of the candidate its category matched; 0 when its
 *   category is unmatched. S_att = mean over the annotated objects with description words.
 * - Relations (0-5): an annotated relation "subject predicate object" against each relation of the
 *   candidate scores predicate recall (canonical relation words, e.g. "on top of" = "on", "beside"
 *   = "next to") x object agreement (1 when the relation's object is an annotated object whose
 *   category matched the predicted relation's object; 0 when it matched another candidate; else the
 *   category similarity); the best predicted relation counts, x 5. An object's relation score is
 *   the mean over its annotated relations (0 when unmatched); S_rel = mean over annotated objects
 *   with relations. A key's relation naming its own category ("bottle next to bottle" with two
 *   bottles) names another object of that category, never the subject.
 * - Nothing to compare (the key has no description words, or no relations, at all): that part is
 *   S_obj / 20, so S_uni is then as if its weight went to S_obj; a part is never null, so every
 *   answer's and every mean's S_uni is Eq. 1 on its own parts, and adding an object whose category
 *   is annotated never lowers a part (its candidate's words only grow; unmatched objects count 0).
 * - S_uni = 0.25 S_obj + 0.35 (20 S_att) + 0.40 (20 S_rel) (Eq. 1, fixed weights). Key states
 *   (abnormal cases) are scored as attributes are: a key state that belongs to an object
 *   (`{state, object}`) against the words of the candidate its object's category matched (0 when
 *   unmatched); one without an object against the best sentence of the whole answer.
 *   S_key = mean x 5, S_abn = 0.1 S_uni + 0.9 (20 S_key).
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
 * first object of that category; `ambiguous` lists categories with several objects; `byCategory`
 * the objects of each category in list order).
 */
export function objectNames(objects: ReadonlyArray<{ category: string }>): {
  names: Map<string, number>;
  ambiguous: Set<string>;
  byCategory: Map<string, number[]>;
} {
  const names = new Map<string, number>();
  const ambiguous = new Set<string>();
  const byCategory = new Map<string, number[]>();
  objectRefs(objects).forEach((ref, i) => {
    names.set(ref, i);
    const category = ref.slice(0, ref.lastIndexOf("."));
    const list = byCategory.get(category);
    if (list) list.push(i);
    else byCategory.set(category, [i]);
    if (names.has(category)) ambiguous.add(category);
    else names.set(category, i);
  });
  return { names, ambiguous, byCategory };
}

/**
 * The object a relation of object `self` points at: its parsed object, except that a bare category
 * naming several objects and resolving to the subject itself ("bottle next to bottle" in a
 * paper-format key with two bottles) names the first other object of that category.
 */
export function relationTarget(parsed: ParsedRelation, self: number, byCategory: ReadonlyMap<string, readonly number[]>): number | null {
  if (parsed.objectIndex !== self) return parsed.objectIndex;
  const same = byCategory.get(parsed.object);
  if (!same || same.length < 2) return parsed.objectIndex;
  return same.find((index) => index !== self) ?? parsed.objectIndex;
}

const longestName = new WeakMap<ReadonlyMap<string, number>, number>();

/** The most words in any name (cached per names map), so parsing a relation is linear in its words. */
function maxNameWords(names: ReadonlyMap<string, number>): number {
  let most = longestName.get(names);
  if (most === undefined) {
    most = 0;
    for (const name of names.keys()) most = Math.max(most, name.split(" ").length);
    longestName.set(names, most);
  }
  return most;
}

/**
 * Splits "bowl.0 next to kitchen counter.0" into subject, predicate and object with the scene's
 * names: the longest name the text starts with is the subject, the longest name it ends with the
 * object, what lies between the predicate. When the text does not end with a name (the paper's
 * keys name things outside the object list, "bowl on kitchen counter"), the object starts at the
 * first determiner, noun or number after the subject. Returns null when there is no subject name
 * or no predicate.
 */
export function parseRelation(text: string, names: ReadonlyMap<string, number>, loose = true): ParsedRelation | null {
  const t = normalize(text);
  const all = t.split(" ");
  const most = maxNameWords(names);
  let subject: string | undefined;
  let taken = 0;
  for (let k = Math.min(most, all.length - 1); k >= 1 && subject === undefined; k--) {
    const candidate = all.slice(0, k).join(" ");
    if (names.has(candidate)) {
      subject = candidate;
      taken = k;
    }
  }
  if (subject === undefined) return null;
  const restWords = all.slice(taken);
  const rest = restWords.join(" ");
  let object: string | undefined;
  for (let k = Math.min(most, restWords.length - 1); k >= 1 && object === undefined; k--) {
    const candidate = restWords.slice(restWords.length - k).join(" ");
    if (names.has(candidate)) object = candidate;
  }
  if (object !== undefined) {
    const predicate = rest.slice(0, rest.length - object.length - 1).trim();
    if (predicate === "") return null;
    return { text, subject, predicate, object, objectIndex: names.get(object) ?? null };
  }
  // strict (answers' validation): the object must be a name; no tagger runs
  if (!loose) return rest === "" ? null : { text, subject, predicate: rest, object: "", objectIndex: null };
  const words = rest.split(" ");
  const tokens = tokenize(rest);
  // first token that starts an object; wink's tokens follow the words closely enough for a split
  const firstObject = tokens.findIndex((token, i) => i > 0 && (token.pos === "DET" || token.pos === "NOUN" || token.pos === "PROPN" || token.pos === "NUM"));
  if (firstObject <= 0 || words.length < 2) return null;
  const cut = Math.min(firstObject, words.length - 1);
  return {
    text,
    subject,
    predicate: words.slice(0, cut).join(" "),
    object: words
      .slice(cut)
      .join(" ")
      .replace(/^(the|a|an) /, ""),
    objectIndex: null,
  };
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
  /** the object it points at: an object index (prepareObjects), a candidate index (candidates, prepareText) */
  objectIndex: number | null;
}

export interface PreparedObject {
  category: string;
  lemmas: string[];
  attributes: Set<string>;
  relations: PreparedRelation[];
  /** free text: indices of the sentences that mention the candidate (sentences(text)); [] for structured objects */
  sentences: number[];
  /** structured candidates: the answer's objects merged into this one (indices); [] for free text */
  members: number[];
}

function withoutCategory(words: Set<string>, lemmas: readonly string[]): Set<string> {
  const own = new Set(lemmas);
  return new Set([...words].filter((word) => !own.has(word)));
}

/** A category's unit: its lemmas joined ("Bowls" -> "bowl"), the raw text when it has none. */
export const categoryKey = (lemmas: readonly string[], category: string) => lemmas.join(" ") || category.trim().toLowerCase();

/** Each object of a scene (a key's, or an answer's before merging), relations resolved to object indices. */
export function prepareObjects(objects: readonly SceneObject[]): PreparedObject[] {
  const { names, byCategory } = objectNames(objects);
  const lemmasOf = objects.map((object) => categoryLemmas(object.category));
  return objects.map((object, i) => {
    const lemmas = lemmasOf[i];
    return {
      category: object.category,
      lemmas,
      attributes: withoutCategory(contentLemmas(object.description), lemmas),
      sentences: [],
      members: [i],
      relations: object.relation.flatMap((text) => {
        const parsed = parseRelation(text, names);
        if (!parsed) return [];
        const target = relationTarget(parsed, i, byCategory);
        // an object of the scene: its lemmas are known (no tagger run per relation)
        return [
          { predicate: predicateWords(parsed.predicate), object: target === null ? categoryLemmas(parsed.object) : lemmasOf[target], objectIndex: target },
        ];
      }),
    };
  });
}

/** An answer's objects merged by category into candidates; relations point at candidates. */
export function mergeCandidates(objects: readonly PreparedObject[]): PreparedObject[] {
  const byKey = new Map<string, number>();
  const candidateOf = objects.map((object) => {
    const key = categoryKey(object.lemmas, object.category);
    let at = byKey.get(key);
    if (at === undefined) {
      at = byKey.size;
      byKey.set(key, at);
    }
    return at;
  });
  const candidates: PreparedObject[] = [];
  objects.forEach((object, i) => {
    const at = candidateOf[i];
    const relations = object.relations.map((relation) => ({
      ...relation,
      objectIndex: relation.objectIndex === null ? null : candidateOf[relation.objectIndex],
    }));
    const candidate = candidates[at];
    if (!candidate) {
      candidates[at] = { ...object, attributes: new Set(object.attributes), relations, members: [...object.members] };
      return;
    }
    for (const word of object.attributes) candidate.attributes.add(word);
    candidate.relations.push(...relations);
    candidate.members.push(...object.members);
  });
  return candidates;
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
      const candidate = byKey.get(key) ?? { category: key, lemmas: phrase.lemmas, attributes: new Set<string>(), relations: [], sentences: [], members: [] };
      byKey.set(key, candidate);
      if (!candidate.sentences.includes(sentence)) candidate.sentences.push(sentence);
    }
  });
  const keys = [...byKey.keys()];
  const content = (tokens: Token[]) =>
    new Set(tokens.filter((token) => ["NOUN", "PROPN", "ADJ", "VERB", "NUM", "ADV"].includes(token.pos) && !token.stop).map((token) => token.lemma));
  for (const { tokens, phrases } of parsed) {
    const words = content(tokens);
    phrases.forEach((phrase, p) => {
      const candidate = byKey.get(phrase.lemmas.join(" "))!;
      for (const word of withoutCategory(words, phrase.lemmas)) candidate.attributes.add(word);
      for (const later of phrases.slice(p + 1)) {
        const between = tokens
          .slice(phrase.end, later.start)
          .map((token) => token.lemma)
          .join(" ");
        candidate.relations.push({ predicate: predicateWords(between), object: later.lemmas, objectIndex: keys.indexOf(later.lemmas.join(" ")) });
      }
    });
  }
  return [...byKey.values()];
}

// ---------------------------------------------------------------------------------------------
// Matching and scores

export interface MatchedPair {
  /** the annotated object (index in the key's objects) */
  annotated: number;
  /** the candidate its category matched (index in the answer's candidates) */
  predicted: number;
  annotatedCategory: string;
  predictedCategory: string;
  similarity: number;
}

/**
 * One pass of mutual maxima over a similarity matrix (the paper's refinement): row i keeps the
 * cell (i, j) whose value is the largest of row i and of column j, > 0 (ties: the first such j).
 * Rows tied for a column's maximum both keep it; no second pass runs over what is left.
 */
export function matchByMutualMaxima(matrix: number[][]): Array<{ annotated: number; predicted: number; similarity: number }> {
  const rows = matrix.length;
  const cols = rows > 0 ? matrix[0].length : 0;
  const colMax = new Array<number>(cols).fill(0);
  for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) colMax[j] = Math.max(colMax[j], matrix[i][j]);
  const pairs: Array<{ annotated: number; predicted: number; similarity: number }> = [];
  for (let i = 0; i < rows; i++) {
    let rowMax = 0;
    for (let j = 0; j < cols; j++) rowMax = Math.max(rowMax, matrix[i][j]);
    if (rowMax <= 0) continue;
    for (let j = 0; j < cols; j++) {
      if (matrix[i][j] === rowMax && rowMax >= colMax[j]) {
        pairs.push({ annotated: i, predicted: j, similarity: rowMax });
        break;
      }
    }
  }
  return pairs;
}

/** The paper's figures and the object matching: what both scorers report (explore-llm-scorer.ts adds its phrase scores). */
export interface ExploreScoreFigures {
  /** what was scored: the structured objects, or the free text when the answer has no objects */
  source: "objects" | "text";
  S_obj: number;
  /** 0-5; nothing to compare = S_obj / 20 (see the module comment) */
  S_att: number;
  S_rel: number;
  S_uni: number;
  S_key?: number;
  S_abn?: number;
  annotatedObjects: number;
  predictedObjects: number;
  matched: MatchedPair[];
  correct: boolean;
}

/** Bumped when the structured scorer's numbers change; the dashboard rescores stored scores of another version. */
export const EXPLORE_STRUCTURED_VERSION = "structured-v2";

export interface ExploreStructuredScore extends ExploreScoreFigures {
  scorer: "structured";
  version?: string;
}

export const S_UNI_WEIGHTS = { obj: 0.25, att: 0.35, rel: 0.4 } as const;
export const S_ABN_LAMBDA = 0.9;
/** Yardstick's calibration threshold (not the paper's): an answer is "correct" at S_uni >= 60. */
export const EXPLORE_CORRECT_THRESHOLD = 60;

function recall(wanted: ReadonlySet<string>, have: ReadonlySet<string>): number {
  if (wanted.size === 0) return 0;
  let found = 0;
  for (const word of wanted) if (have.has(word)) found++;
  return found / wanted.size;
}

/** S_uni, the paper's Eq. 1 with its fixed weights (CompreCap's): 0.25 S_obj + 0.35 (20 S_att) + 0.40 (20 S_rel). */
export function unifiedScore(sObj: number, sAtt: number, sRel: number): number {
  return S_UNI_WEIGHTS.obj * sObj + S_UNI_WEIGHTS.att * 20 * sAtt + S_UNI_WEIGHTS.rel * 20 * sRel;
}

/** A part's value (0-5) from per-object scores; nothing to compare (no object has any) is S_obj / 20. */
export function partScore(perObject: readonly number[], sObj: number): number {
  return perObject.length === 0 ? sObj / 20 : perObject.reduce((a, b) => a + b, 0) / perObject.length;
}

export interface StructuredAnswer {
  objects: SceneObject[];
  text: string;
}

/** A key state (abnormal cases): its text and the annotated object it belongs to (null: the scene's). */
export interface KeyState {
  state: string;
  object: number | null;
}

/** The key states of a key, in either form (a string, or `{state, object}` from the per-object layout). */
export function keyStatesOf(key: { keyStates?: ReadonlyArray<string | { state: string; object: number }> }): KeyState[] {
  return (key.keyStates ?? []).map((entry) => (typeof entry === "string" ? { state: entry, object: null } : { state: entry.state, object: entry.object }));
}

/** Object similarity: annotated categories x candidates -> [0, 1] (lemma/WordNet by default, or embeddings). */
export type SimilarityMatrix = (annotated: readonly PreparedObject[], candidates: readonly PreparedObject[]) => number[][];

export const lemmaSimilarityMatrix: SimilarityMatrix = (annotated, candidates) =>
  annotated.map((a) => candidates.map((p) => categorySimilarity(a.lemmas, p.lemmas)));

/** The object level shared by every EXPLORE scorer: the prepared scenes, the matched pairs and S_obj. */
export interface ObjectMatching {
  source: "objects" | "text";
  /** the key's objects */
  annotated: PreparedObject[];
  /** the answer's candidates (objects merged by category, or the free text's noun phrases) */
  predicted: PreparedObject[];
  /** the annotated categories (unique), each with its objects */
  categories: Array<{ key: string; objects: number[] }>;
  /** annotated object index -> matched candidate index */
  predictedFor: Map<number, number>;
  sObj: number;
  /** one per annotated object whose category matched */
  matched: MatchedPair[];
}

/**
 * An answer's candidates (its structured objects merged by category, or its free text's noun
 * phrases) matched to the key's categories: similarity matrix, one pass of mutual maxima,
 * S_obj = 100 x soft coverage of the annotated categories.
 */
export function matchObjects(answer: StructuredAnswer, key: { objects: SceneObject[] }, similarity: SimilarityMatrix = lemmaSimilarityMatrix): ObjectMatching {
  const source = answer.objects.length > 0 ? "objects" : "text";
  const annotated = prepareObjects(key.objects);
  const predicted = source === "objects" ? mergeCandidates(prepareObjects(answer.objects)) : prepareText(answer.text);
  const byKey = new Map<string, number[]>();
  annotated.forEach((object, i) => {
    const unit = categoryKey(object.lemmas, object.category);
    byKey.set(unit, [...(byKey.get(unit) ?? []), i]);
  });
  const categories = [...byKey.entries()].map(([unit, objects]) => ({ key: unit, objects }));
  const matrix =
    predicted.length === 0
      ? categories.map(() => [])
      : similarity(
          categories.map((category) => annotated[category.objects[0]]),
          predicted,
        );
  const pairs = matchByMutualMaxima(matrix);
  const sObj = categories.length === 0 ? 0 : (100 * pairs.reduce((sum, pair) => sum + pair.similarity, 0)) / categories.length;
  const predictedFor = new Map<number, number>();
  const matched: MatchedPair[] = [];
  for (const pair of pairs) {
    for (const object of categories[pair.annotated].objects) {
      predictedFor.set(object, pair.predicted);
      matched.push({
        annotated: object,
        predicted: pair.predicted,
        similarity: pair.similarity,
        annotatedCategory: key.objects[object].category,
        predictedCategory: predicted[pair.predicted].category,
      });
    }
  }
  matched.sort((x, y) => x.annotated - y.annotated);
  return { source, annotated, predicted, categories, predictedFor, sObj, matched };
}

/** The structured scorer: an answer (objects, or free text when it has none) against the key's objects. */
export function scoreStructured(
  answer: StructuredAnswer,
  key: { objects: SceneObject[]; keyStates?: ReadonlyArray<string | { state: string; object: number }> },
  similarity?: SimilarityMatrix,
): ExploreStructuredScore {
  const { source, annotated, predicted, predictedFor, sObj, matched } = matchObjects(answer, key, similarity);
  const attScores: number[] = [];
  const relScores: number[] = [];
  annotated.forEach((a, i) => {
    const at = predictedFor.get(i);
    const p = at === undefined ? undefined : predicted[at];
    if (a.attributes.size > 0) attScores.push(p ? 5 * recall(a.attributes, p.attributes) : 0);
    if (a.relations.length === 0) return;
    if (!p) {
      relScores.push(0);
      return;
    }
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
  });
  const sAtt = partScore(attScores, sObj);
  const sRel = partScore(relScores, sObj);
  const sUni = unifiedScore(sObj, sAtt, sRel);
  const score: ExploreStructuredScore = {
    scorer: "structured",
    version: EXPLORE_STRUCTURED_VERSION,
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
  const states = keyStatesOf(key);
  if (states.length > 0) {
    // what the answer says of a candidate, as content lemmas: its objects' category, description and relations, or its sentences
    let textSentences: string[] | null = null;
    const saidOf = (candidate: PreparedObject): Set<string> => {
      const texts =
        source === "objects"
          ? candidate.members.flatMap((member) => [
              `${answer.objects[member].category} ${answer.objects[member].description}`,
              ...answer.objects[member].relation,
            ])
          : candidate.sentences.map((index) => (textSentences ??= sentences(answer.text))[index]);
      return new Set(texts.flatMap((text) => [...contentLemmas(text)]));
    };
    let sceneSaid: Array<Set<string>> | null = null;
    const perState = states.map(({ state, object }) => {
      const wanted = contentLemmas(state);
      if (object !== null) {
        const at = predictedFor.get(object);
        return at === undefined ? 0 : recall(wanted, saidOf(predicted[at]));
      }
      // structured answers: the objects (their text is generated from them); free text: its sentences
      sceneSaid ??= (source === "objects" ? answer.objects.flatMap((o) => [`${o.category} ${o.description}`, ...o.relation]) : sentences(answer.text)).map(
        contentLemmas,
      );
      return Math.max(0, ...sceneSaid.map((words) => recall(wanted, words)));
    });
    score.S_key = (5 * perState.reduce((x, y) => x + y, 0)) / perState.length;
    score.S_abn = (1 - S_ABN_LAMBDA) * sUni + S_ABN_LAMBDA * 20 * score.S_key;
  }
  return score;
}
