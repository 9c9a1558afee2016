import { z } from "zod";
import type { AgreementEncoding, Json, MetricSpec, TaskItem, TaskModule } from "@/lib/tasks/types";
import { categoryLemmas } from "@/lib/tasks/shared/explore/nlp";
import { EXPLORE_ANSWER_LIMITS } from "@/lib/tasks/shared/explore/limits";
import { viewArray, viewField } from "@/lib/tasks/shared/view-fields";
import { objectSentences } from "@/lib/tasks/shared/explore/llm-scorer";
import { objectNames, objectRefs, parseRelation, scoreStructured, type ExploreStructuredScore, type SceneObject } from "@/lib/tasks/shared/explore/scorer";

/**
 * EXPLORE-Bench final-scene prediction (`explore-scene`; ../shared/benchmarks/explore.md): from
 * the initial image and the ordered atomic actions, describe the final scene as objects with
 * attributes and relations. Scored by Yardstick's deterministic structured scorer
 * (lib/tasks/shared/explore/scorer.ts), labelled "structured scorer"; the paper's LLM scorer is pluggable:
 * with SCORER_LLM_URL set, background jobs (lib/scoring/) score answers with the paper's prompts
 * (lib/tasks/shared/explore/llm.ts, explore-llm-scorer.ts), labelled "LLM scorer (<model>)". A study may
 * ask for free text instead of the structured scene (settingsSchema: { freeText }).
 *
 * Relation naming (answers): a relation is "<subject> <relation> <object>" where subject and
 * object are refs `category.k` (k = 0-based index among the answer's objects of that category, in
 * list order: "bowl.0 on kitchen counter.0"), or a bare category when the answer has one object
 * of it ("bowl on kitchen counter"). The subject must be the object the relation belongs to and
 * the object another existing object of the answer. Keys (the paper's format) name categories and
 * may point at things outside the object list ("bowl on kitchen counter"); they are not checked.
 */

export { EXPLORE_ANSWER_LIMITS };
const L = EXPLORE_ANSWER_LIMITS;

const objectFields = {
  category: z
    .string()
    .trim()
    .min(1, "a category is a non-empty noun or noun phrase")
    .max(L.categoryChars, `a category has at most ${L.categoryChars} characters`),
  description: z.string().max(L.descriptionChars, `a description has at most ${L.descriptionChars} characters`),
  relation: z
    .array(z.string().trim().min(1, "a relation is non-empty text").max(L.relationChars, `a relation has at most ${L.relationChars} characters`))
    .max(L.relationsPerObject, `at most ${L.relationsPerObject} relations per object`),
};

/** The counts, checked first and in linear time: objects, relations per object and in all. Null when within the caps. */
export function exploreAnswerTooBig(value: unknown): { path: Array<string | number>; message: string } | null {
  if (typeof value !== "object" || value === null) return null;
  const objects = (value as { objects?: unknown }).objects;
  if (!Array.isArray(objects)) return null;
  if (objects.length > L.objects) return { path: ["objects"], message: `at most ${L.objects} objects (got ${objects.length})` };
  let relations = 0;
  for (let i = 0; i < objects.length; i++) {
    const relation = (objects[i] as { relation?: unknown } | null)?.relation;
    if (!Array.isArray(relation)) continue;
    if (relation.length > L.relationsPerObject)
      return { path: ["objects", i, "relation"], message: `at most ${L.relationsPerObject} relations per object (got ${relation.length})` };
    relations += relation.length;
  }
  if (relations > L.relations) return { path: ["objects"], message: `at most ${L.relations} relations in all (got ${relations})` };
  return null;
}

/** Rejects an answer over the counts before its parts are parsed (an oversized answer must not cost CPU). */
function countsFirst<T extends z.ZodType>(schema: T) {
  return z.preprocess((value, ctx) => {
    const tooBig = exploreAnswerTooBig(value);
    if (tooBig) ctx.addIssue({ code: "custom", path: tooBig.path, message: tooBig.message });
    return value;
  }, schema);
}

/** One object of the paper's final-scene annotation. */
export const exploreKeyObjectSchema = z.object({
  category: objectFields.category,
  description: z.string().default(""),
  relation: z.array(z.string()).default([]),
});

export const exploreScenePublicSchema = z.strictObject({
  /** the initial-scene image (path relative to the batch folder) */
  initialImage: z.string().min(1),
  /** the atomic actions in order (11 to 694 in the benchmark) */
  actions: z.array(z.string().min(1)).min(1, "an item needs at least one action"),
  /** suggested categories for the scene editor's type-ahead */
  vocabulary: z.array(z.string().min(1)).optional(),
});
export type ExploreScenePublic = z.infer<typeof exploreScenePublicSchema>;

/** A key state: of the scene (a string) or of one annotated object (`object`: its index; Listings 13-14). */
export const exploreKeyStateSchema = z.union([z.string().min(1), z.strictObject({ state: z.string().trim().min(1), object: z.number().int().min(0) })]);

export const exploreSceneKeySchema = z
  .strictObject({
    objects: z.array(exploreKeyObjectSchema).min(1, "the final scene needs at least one annotated object"),
    /** abnormal cases: the key states ("the faucet is left running") scored as S_key */
    keyStates: z.array(exploreKeyStateSchema).optional(),
  })
  .superRefine((key, ctx) => {
    key.keyStates?.forEach((entry, i) => {
      if (typeof entry !== "string" && entry.object >= key.objects.length) {
        ctx.addIssue({
          code: "custom",
          path: ["keyStates", i, "object"],
          message: `key state ${JSON.stringify(entry.state)} belongs to object ${entry.object}, but the scene has ${key.objects.length} objects`,
        });
      }
    });
  });
export type ExploreSceneKey = z.infer<typeof exploreSceneKeySchema>;

/** A list of refs for a message, at most 12 of them. */
function refList(refs: readonly string[]): string {
  return refs.length <= 12 ? refs.join(", ") : `${refs.slice(0, 12).join(", ")}, ... (${refs.length} objects)`;
}

/**
 * Checks that every relation names its own object as subject and an existing object as object:
 * linear in the answer's words (name lookups in a map; no tagger); at most 50 issues are reported.
 */
function checkRelations(objects: ReadonlyArray<{ category: string; relation: string[] }>, ctx: z.RefinementCtx): void {
  const { names, ambiguous, byCategory } = objectNames(objects);
  const refs = objectRefs(objects);
  const known = refList(refs);
  let issues = 0;
  const addIssue = (path: Array<string | number>, message: string) => {
    if (issues++ < 50) ctx.addIssue({ code: "custom", path, message });
  };
  objects.forEach((object, i) => {
    object.relation.forEach((text, r) => {
      const path = ["objects", i, "relation", r];
      const parsed = parseRelation(text, names, false);
      if (!parsed) {
        addIssue(path, `relation ${JSON.stringify(text)} must read "<subject> <relation> <object>" with the subject one of the scene's objects (${known})`);
        return;
      }
      if (names.get(parsed.subject) !== i) {
        addIssue(path, `relation ${JSON.stringify(text)} belongs to ${refs[i]} but its subject is ${parsed.subject}`);
      } else if (ambiguous.has(parsed.subject)) {
        addIssue(path, `relation ${JSON.stringify(text)}: "${parsed.subject}" names several objects; write ${refs[i]}`);
      }
      if (parsed.objectIndex === null) {
        addIssue(path, `relation ${JSON.stringify(text)} must end with an existing object of the scene (${known})`);
      } else if (ambiguous.has(parsed.object)) {
        addIssue(
          path,
          `relation ${JSON.stringify(text)}: "${parsed.object}" names several objects; write one of ${refList((byCategory.get(parsed.object) ?? []).map((index) => refs[index]))}`,
        );
      } else if (parsed.objectIndex === i) {
        addIssue(path, `relation ${JSON.stringify(text)} relates ${refs[i]} to itself`);
      }
    });
  });
}

/** What annotators submit from the scene editor: at least one object; relations point at existing objects. */
export const exploreSceneAnswerSchema = countsFirst(
  z
    .strictObject({
      objects: z.array(z.strictObject(objectFields)).min(1, "describe at least one object").max(L.objects, `at most ${L.objects} objects`),
      /** the free-text description generated from the objects */
      text: z.string().max(L.textChars, `at most ${L.textChars.toLocaleString("en-US")} characters`),
    })
    .superRefine((answer, ctx) => checkRelations(answer.objects, ctx)),
);
export type ExploreSceneAnswer = { objects: SceneObject[]; text: string };

/** Free-text mode (Study.taskSettings["explore-scene"].freeText): no objects, a non-empty description. */
export const exploreSceneFreeTextAnswerSchema = z.strictObject({
  objects: z.array(z.never()).max(0, "free-text mode: the answer is the text, without objects"),
  text: z
    .string()
    .trim()
    .min(1, "describe the final scene")
    .max(L.freeTextChars, `at most ${L.freeTextChars.toLocaleString("en-US")} characters`),
});

/**
 * The kind's settings in a study (Study.taskSettings["explore-scene"]): `freeText` true makes the
 * annotator type the description instead of building the structured scene; the text is then
 * scored as a model's free text is (noun phrases as candidate objects; or the LLM scorer).
 */
export const exploreSceneSettingsSchema = z.strictObject({
  freeText: z.boolean().default(false),
});
export type ExploreSceneSettings = z.infer<typeof exploreSceneSettingsSchema>;

export function exploreSettingsOf(settings: unknown): ExploreSceneSettings {
  const parsed = exploreSceneSettingsSchema.safeParse(settings ?? {});
  return parsed.success ? parsed.data : { freeText: false };
}

export type ExploreSceneScore = ExploreStructuredScore;

type ExploreItem = TaskItem<ExploreScenePublic, ExploreSceneKey>;

export const exploreMetrics: MetricSpec[] = [
  {
    id: "S_obj",
    scale: "points",
    range: [0, 100],
    label: "S_obj (structured scorer)",
    type: "ratio",
    description:
      "Mean object-level score, 0-100: soft coverage of the annotated categories, one pass of mutual maxima over lemma/WordNet similarities (Yardstick's structured scorer, not the paper's Sentence-BERT).",
  },
  {
    id: "S_att",
    scale: "points",
    range: [0, 5],
    label: "S_att (structured scorer)",
    type: "ratio",
    description:
      "Mean attribute score, 0-5: content-lemma recall of each annotated description in its matched candidate, 0 when unmatched (structured scorer, not the paper's LLM judge).",
  },
  {
    id: "S_rel",
    scale: "points",
    range: [0, 5],
    label: "S_rel (structured scorer)",
    type: "ratio",
    description: "Mean relation score, 0-5: relation-word recall times object agreement over the annotated relations, 0 when unmatched (structured scorer).",
  },
  {
    id: "S_uni",
    scale: "points",
    range: [0, 100],
    label: "S_uni (structured scorer)",
    type: "ratio",
    description: "Mean of 0.25 S_obj + 0.35 (20 S_att) + 0.40 (20 S_rel), 0-100 (Eq. 1; structured scorer).",
  },
  {
    id: "S_key",
    scale: "points",
    range: [0, 5],
    label: "S_key (structured scorer)",
    type: "ratio",
    description: "Mean key-state score, 0-5, over abnormal items (items with key states), each state against what the answer says of its object.",
  },
  {
    id: "S_abn",
    scale: "points",
    range: [0, 100],
    label: "S_abn (structured scorer)",
    type: "ratio",
    description: "Mean of 0.1 S_uni + 0.9 (20 S_key) over abnormal items.",
  },
  {
    id: "correctShare",
    label: "Share with S_uni >= 60 (Yardstick's threshold)",
    type: "proportion",
    description: "Share of answers with S_uni >= 60: Yardstick's calibration threshold, not the paper's.",
  },
];

function meanOf(values: Array<number | null | undefined>): number | null {
  const present = values.filter((value): value is number => typeof value === "number");
  return present.length === 0 ? null : present.reduce((a, b) => a + b, 0) / present.length;
}

function isExploreScore(value: unknown): value is ExploreSceneScore {
  return typeof value === "object" && value !== null && (value as { scorer?: unknown }).scorer === "structured";
}

/** A category as a unit name: its lemmas ("Bowls" -> "bowl"). */
const categoryUnit = (category: string) => categoryLemmas(category).join(" ") || category.trim().toLowerCase();

export const exploreAgreementEncodings: AgreementEncoding<ExploreSceneAnswer>[] = [
  {
    id: "object-presence-nominal",
    label: "Each annotated category a unit, nominal: present (matched by the structured scorer) or absent",
    level: "nominal",
    unitNoun: "annotated object",
    needsContext: true,
    units(_answer, context) {
      if (!context || !isExploreScore(context.score)) return [];
      const key = context.key as ExploreSceneKey;
      const present = new Set(context.score.matched.map((pair) => categoryUnit(key.objects[pair.annotated].category)));
      const units = [...new Set(key.objects.map((object) => categoryUnit(object.category)))];
      return units.map((unit) => ({ unit: `object-${unit}`, value: present.has(unit) ? "present" : "absent" }));
    },
  },
  {
    id: "s-uni-interval",
    label: "Each item a unit, interval on S_uni (structured scorer)",
    level: "interval",
    needsContext: true,
    units: (_answer, context) => (context && isExploreScore(context.score) ? [{ unit: "", value: context.score.S_uni }] : []),
  },
];

const looseObjectSchema = z.object({
  category: z.string().trim().min(1),
  description: z.string().catch(""),
  relation: z.array(z.string()).catch([]),
});

/**
 * A model output or an answer: an answer object (`objects` may hold the paper's objects, relations
 * unchecked), the paper's object list, the paper's prediction `{start_frame: "description"}`, JSON
 * text of any of these, or free text (scored as text). Null when nothing is readable.
 */
export function parseExploreModelAnswer(raw: unknown): ExploreSceneAnswer | null {
  if (typeof raw === "string") {
    const text = raw.trim();
    if (text === "") return null;
    if (/^[[{]/.test(text)) {
      try {
        const parsed = parseExploreModelAnswer(JSON.parse(text) as unknown);
        if (parsed) return parsed;
      } catch {
        // not JSON: free text
      }
    }
    return { objects: [], text };
  }
  if (Array.isArray(raw)) {
    const objects = z.array(looseObjectSchema).safeParse(raw);
    return objects.success && objects.data.length > 0 ? { objects: objects.data, text: "" } : null;
  }
  if (typeof raw === "object" && raw !== null) {
    const record = raw as Record<string, unknown>;
    if ("objects" in record || "text" in record) {
      const objects = z.array(looseObjectSchema).safeParse(record.objects ?? []);
      const text = typeof record.text === "string" ? record.text : "";
      if (!objects.success || (objects.data.length === 0 && text.trim() === "")) return null;
      return { objects: objects.data, text };
    }
    const values = Object.values(record);
    if (values.length === 1 && typeof values[0] === "string") return parseExploreModelAnswer(values[0]);
  }
  return null;
}

export const exploreSceneModule: TaskModule<ExploreScenePublic, ExploreSceneKey, ExploreSceneAnswer, ExploreSceneScore> = {
  kind: "explore-scene",
  title: "EXPLORE-Bench final-scene prediction",
  benchmark: "EXPLORE-Bench",
  publicSchema: exploreScenePublicSchema,
  keySchema: exploreSceneKeySchema,
  answerSchema: exploreSceneAnswerSchema as z.ZodType<ExploreSceneAnswer>,

  mapImages: (item, replace) => ({ public: { ...item.public, initialImage: replace(item.public.initialImage) }, key: item.key }),

  settingsSchema: exploreSceneSettingsSchema,

  /** `freeText: true` tells the page to show the text box instead of the scene editor (study setting) */
  publicView(item: ExploreItem, settings?: Record<string, unknown>): Json {
    return {
      initialImage: item.public.initialImage,
      actions: [...item.public.actions],
      ...(item.public.vocabulary ? { vocabulary: [...item.public.vocabulary] } : {}),
      ...(exploreSettingsOf(settings).freeText ? { freeText: true } : {}),
    };
  },

  answerSchemaFor: (_item, settings) =>
    (exploreSettingsOf(settings).freeText ? exploreSceneFreeTextAnswerSchema : exploreSceneAnswerSchema) as z.ZodType<ExploreSceneAnswer>,

  agent: {
    answerInstructions:
      "The view shows the scene before (initialImage) and the atomic actions done in it, in order (actions); vocabulary, when given, suggests object categories. Describe the final scene after every action. " +
      'Answer {"objects": [{"category", "description", "relation"}], "text": ""}: one entry per object, its category (a noun phrase), its attributes in words (description) and its relations, each "<subject> <relation> <object>" ' +
      'whose subject is this object and whose object is another object of the answer, named category.k (k: 0-based among the answer\'s objects of that category, in list order; "bowl.0 on counter.0") or by the bare category when the answer has one of it. ' +
      'When the view says freeText: true, the study asks for text instead: answer {"objects": [], "text": "<the final scene in words>"}.',
    answerSchemaIn: (settings) => (exploreSettingsOf(settings).freeText ? exploreSceneFreeTextAnswerSchema : exploreSceneAnswerSchema),
    exampleAnswer: (view) => {
      if (viewField(view, "freeText") === true) return { objects: [], text: "The scene after the actions." };
      const suggested = viewArray(view, "vocabulary")?.find(
        (entry): entry is string => typeof entry === "string" && entry.trim() !== "" && entry.length <= L.categoryChars,
      );
      return { objects: [{ category: suggested?.trim() ?? "table", description: "", relation: [] }], text: "" };
    },
  },
  keyAnswer: (key) => ({
    objects: key.objects.map((object) => ({ ...object, relation: [...object.relation] })),
    text: objectSentences(key.objects).sentences.join(" "),
  }),
  score: (answer, key) => scoreStructured(answer, key),
  correct: (score) => score.correct,
  aggregate: (scores) => ({
    S_obj: meanOf(scores.map((score) => score.S_obj)),
    S_att: meanOf(scores.map((score) => score.S_att)),
    S_rel: meanOf(scores.map((score) => score.S_rel)),
    S_uni: meanOf(scores.map((score) => score.S_uni)),
    S_key: meanOf(scores.map((score) => score.S_key)),
    S_abn: meanOf(scores.map((score) => score.S_abn)),
    correctShare: meanOf(scores.map((score) => (score.correct ? 1 : 0))),
  }),
  metrics: exploreMetrics,
  // the paper's unified score (Eq. 1), not the first of its parts
  headlineMetric: "S_uni",
  agreementEncodings: exploreAgreementEncodings,

  reviewView(item: ExploreItem): Json {
    const { names } = objectNames(item.key.objects);
    const refs = objectRefs(item.key.objects);
    return {
      scorer: "structured",
      initialImage: item.public.initialImage,
      actionCount: item.public.actions.length,
      objects: item.key.objects.map((object, i) => ({
        ref: refs[i],
        category: object.category,
        description: object.description,
        relations: object.relation.map((text) => {
          const parsed = parseRelation(text, names);
          return {
            text,
            predicate: parsed?.predicate ?? null,
            object: parsed?.object ?? null,
            objectRef: parsed && parsed.objectIndex !== null ? refs[parsed.objectIndex] : null,
          };
        }),
      })),
      keyStates: [...(item.key.keyStates ?? [])],
    };
  },

  parseModelAnswer: parseExploreModelAnswer,
};
