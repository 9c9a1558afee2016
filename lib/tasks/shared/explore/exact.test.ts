import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { exploreTableRow } from "@/lib/tasks/shared/explore/tables";
import { tokenize, wordSimilarity } from "@/lib/tasks/shared/explore/nlp";
import { exploreSceneKeySchema } from "@/lib/tasks/explore-scene";
import { matchByMutualMaxima, scoreStructured, unifiedScore, type SceneObject } from "@/lib/tasks/shared/explore/scorer";

// the tagger model and WordNet load once per process (seconds on a busy machine): not inside a test's 5 s
beforeAll(() => {
  tokenize("warm up");
  wordSimilarity("cup", "bowl");
}, 120_000);

/**
 * EXPLORE-Bench's numbers made exact: S_obj over the annotated categories from one
 * mutual-maxima pass, S_uni as Eq. 1 with fixed weights, monotone in correct objects, relations
 * between objects of one category, WordNet's most frequent senses, key states per object.
 */

const obj = (category: string, description = "", relation: string[] = []): SceneObject => ({ category, description, relation });
const eq1 = (sObj: number, sAtt: number, sRel: number) => 0.25 * sObj + 0.35 * 20 * sAtt + 0.4 * 20 * sRel;

describe("S_obj: coverage of the annotated categories, one mutual-maxima pass", () => {
  it("a key {bowl, bowl, counter} answered 'two bowls on the counter' covers both categories", () => {
    const key = exploreSceneKeySchema.parse({ objects: [obj("bowl"), obj("bowl"), obj("counter")] });
    const score = scoreStructured({ objects: [], text: "Two bowls are on the counter." }, key);
    expect(score.S_obj).toBeCloseTo(100);
    expect(score.annotatedObjects).toBe(3);
  });

  it("no second pass over the leftovers: a row whose maximum is taken by a better row stays unmatched", () => {
    // rows A, B; columns X, Y: A-X 1, B-X 0.9, B-Y 0.8. A second pass would give B the column Y.
    expect(
      matchByMutualMaxima([
        [1, 0.7],
        [0.9, 0.8],
      ]).map((pair) => [pair.annotated, pair.predicted]),
    ).toEqual([[0, 0]]);
  });
});

describe("S_uni is Eq. 1 with fixed weights", () => {
  const key = exploreSceneKeySchema.parse({ objects: [obj("table"), obj("cup", "white ceramic cup", ["cup on table"])] });

  it("adding a correct object never lowers the score ([table] then [table, cup]: was 50 then 25)", () => {
    const one = scoreStructured({ objects: [obj("table")], text: "" }, key);
    const two = scoreStructured({ objects: [obj("table"), obj("cup")], text: "" }, key);
    expect(two.S_uni).toBeGreaterThanOrEqual(one.S_uni);
  });

  it("every answer's S_uni is Eq. 1 on its own parts; a part with nothing to compare counts as S_obj / 20", () => {
    for (const answer of [[obj("table")], [obj("table"), obj("cup")], [obj("cup", "white cup", ["cup on table"])], [obj("dog")]]) {
      const score = scoreStructured({ objects: answer, text: "" }, key);
      expect(score.S_att).not.toBeNull();
      expect(score.S_rel).not.toBeNull();
      expect(score.S_uni).toBeCloseTo(eq1(score.S_obj, score.S_att!, score.S_rel!), 9);
    }
    const bare = exploreSceneKeySchema.parse({ objects: [obj("table"), obj("cup")] });
    const score = scoreStructured({ objects: [obj("table")], text: "" }, bare);
    expect(score.S_att).toBeCloseTo(50 / 20);
    expect(score.S_rel).toBeCloseTo(50 / 20);
    expect(score.S_uni).toBeCloseTo(50);
    expect(unifiedScore(80, 2, 3)).toBeCloseTo(eq1(80, 2, 3));
  });

  const categories = ["table", "cup", "bowl", "knife", "sink", "apple", "towel"];
  const descriptions = ["", "white ceramic", "round wooden", "sharp metal", "red fresh"];
  const arbObject = (names: string[]) =>
    fc.record({
      category: fc.constantFrom(...names),
      description: fc.constantFrom(...descriptions),
      relation: fc.constant([] as string[]),
    });
  const arbKey = fc
    .uniqueArray(fc.constantFrom(...categories), { minLength: 1, maxLength: 5 })
    .chain((names) =>
      fc.tuple(
        fc.constant(names),
        fc.array(fc.constantFrom(...descriptions), { minLength: names.length, maxLength: names.length }),
        fc.array(fc.boolean(), { minLength: names.length, maxLength: names.length }),
      ),
    );
  const keyOf = ([names, descs, related]: [string[], string[], boolean[]]) =>
    exploreSceneKeySchema.parse({ objects: names.map((name, i) => obj(name, descs[i], related[i] && i > 0 ? [`${name} next to ${names[0]}`] : [])) });

  it("property: adding an object of a key category never lowers S_uni (random keys and answers)", () => {
    fc.assert(
      fc.property(arbKey, fc.array(arbObject(categories), { maxLength: 5 }), fc.nat(), fc.constantFrom(...descriptions), (k, answer, pick, description) => {
        const key = keyOf(k);
        const added = obj(key.objects[pick % key.objects.length].category, description);
        const before = scoreStructured({ objects: answer.length > 0 ? answer : [obj("dog")], text: "" }, key);
        const after = scoreStructured({ objects: [...(answer.length > 0 ? answer : [obj("dog")]), added], text: "" }, key);
        expect(after.S_uni).toBeGreaterThanOrEqual(before.S_uni - 1e-9);
      }),
      { numRuns: 150, seed: 16 },
    );
  });

  it("property: every dashboard row satisfies Eq. 1 on its own S_obj, S_att, S_rel (random answers)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(arbKey, fc.array(arbObject(categories), { minLength: 1, maxLength: 5 }), fc.constantFrom("Short", "Medium", "Long", null)), {
          minLength: 1,
          maxLength: 8,
        }),
        (cases) => {
          const entries = cases.map(([k, answer, subset]) => ({ subset, score: scoreStructured({ objects: answer, text: "" }, keyOf(k)) }));
          const row = exploreTableRow({ id: "p", label: "p", group: "annotator" }, entries);
          for (const cell of Object.values(row.cells)) {
            if (cell.n === 0) continue;
            expect(cell.S_uni!).toBeCloseTo(eq1(cell.S_obj!, cell.S_att!, cell.S_rel!), 9);
          }
        },
      ),
      { numRuns: 100, seed: 1616 },
    );
  });
});

describe("relations between two objects of one category", () => {
  it("'bottle next to bottle' in a paper-format key names the other bottle; a perfect structured answer scores S_rel 5 and S_uni 100", () => {
    const key = exploreSceneKeySchema.parse({
      objects: [obj("bottle", "green glass bottle", ["bottle next to bottle"]), obj("bottle", "clear plastic bottle", ["bottle next to bottle"])],
    });
    const answer = {
      objects: [obj("bottle", "green glass bottle", ["bottle.0 next to bottle.1"]), obj("bottle", "clear plastic bottle", ["bottle.1 next to bottle.0"])],
      text: "",
    };
    const score = scoreStructured(answer, key);
    expect(score.S_rel).toBeCloseTo(5);
    expect(score.S_uni).toBeCloseTo(100);
  });
});

describe("WordNet: the most frequent noun senses only", () => {
  it("unrelated everyday objects score 0; synonyms and hypernyms of the first sense still match", () => {
    expect(wordSimilarity("pot", "stool")).toBe(0);
    expect(wordSimilarity("dish", "bag")).toBe(0);
    expect(wordSimilarity("sofa", "couch")).toBe(0.9);
    expect(wordSimilarity("fridge", "refrigerator")).toBe(0.8);
  });
});

describe("key states per object (Listings 13-14)", () => {
  const keyOf = () =>
    exploreSceneKeySchema.parse({
      objects: [obj("faucet", "silver metal faucet"), obj("refrigerator", "white refrigerator")],
      keyStates: [{ state: "The water is flowing from the spout of the faucet.", object: 0 }],
    });

  it("are scored against what the answer says about the object they belong to", () => {
    const key = keyOf();
    const right = scoreStructured(
      { objects: [obj("faucet", "silver metal faucet, water flowing from the spout"), obj("refrigerator", "white")], text: "" },
      key,
    );
    expect(right.S_key).toBeCloseTo(5);
    // the same words said of another object do not count
    const elsewhere = scoreStructured(
      { objects: [obj("faucet", "silver metal faucet"), obj("refrigerator", "white, water flowing from the spout")], text: "" },
      key,
    );
    expect(elsewhere.S_key!).toBeLessThan(2.5);
    expect(right.S_abn).toBeCloseTo(0.1 * right.S_uni + 0.9 * 20 * right.S_key!);
  });

  it("a key state must belong to an existing object", () => {
    const bad = exploreSceneKeySchema.safeParse({ objects: [obj("faucet")], keyStates: [{ state: "running", object: 3 }] });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues[0].path).toEqual(["keyStates", 0, "object"]);
  });
});
