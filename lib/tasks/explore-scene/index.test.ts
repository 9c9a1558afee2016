import { beforeAll, describe, expect, it } from "vitest";
import { runScoreCommand } from "@/lib/cli/score";
import { kindSettings } from "@/lib/tasks";
import { categorySimilarity, tokenize, wordSimilarity } from "@/lib/tasks/shared/explore/nlp";
import { exploreSceneAnswerSchema, exploreSceneKeySchema, exploreSceneModule, parseExploreModelAnswer } from "@/lib/tasks/explore-scene";
import { matchByMutualMaxima, scoreStructured } from "@/lib/tasks/shared/explore/scorer";

// the tagger model and WordNet load once per process (seconds on a busy machine): not inside a test's 5 s
beforeAll(() => {
  tokenize("warm up");
  wordSimilarity("cup", "bowl");
}, 120_000);

const key = exploreSceneKeySchema.parse({
  objects: [
    { category: "bowl", description: "white ceramic bowl with a smooth surface", relation: ["bowl on kitchen counter", "bowl next to sink"] },
    { category: "cabbage", description: "shredded green cabbage, fresh and crisp", relation: ["cabbage in colander"] },
    { category: "colander", description: "metal colander with holes", relation: ["colander in sink"] },
    { category: "sink", description: "stainless steel sink", relation: [] },
  ],
});
const exact = { objects: key.objects, text: "" };

describe("explore-scene structured scorer", () => {
  it("scores the key itself 100 on every level", () => {
    const score = scoreStructured(exact, key);
    expect(score.S_obj).toBeCloseTo(100);
    expect(score.S_att).toBeCloseTo(5);
    expect(score.S_rel).toBeCloseTo(5);
    expect(score.S_uni).toBeCloseTo(100);
    expect(score.scorer).toBe("structured");
    expect(exploreSceneModule.correct(score)).toBe(true);
  });

  it("matches plurals and WordNet synonyms, and says mug and cup are unrelated in WordNet", () => {
    expect(categorySimilarity(["cup"], ["cup"])).toBe(1);
    expect(wordSimilarity("sofa", "couch")).toBe(0.9); // one synset
    expect(wordSimilarity("fridge", "refrigerator")).toBe(0.8); // direct hypernym
    expect(wordSimilarity("mug", "cup")).toBe(0); // no shared synset, no direct hypernym in WordNet 3.1
    const cupKey = exploreSceneKeySchema.parse({ objects: [{ category: "cup" }, { category: "sofa" }] });
    const score = scoreStructured(
      {
        objects: [
          { category: "Cups", description: "", relation: [] },
          { category: "couch", description: "", relation: [] },
        ],
        text: "",
      },
      cupKey,
    );
    expect(score.matched.map((pair) => [pair.annotatedCategory, pair.predictedCategory, pair.similarity])).toEqual([
      ["cup", "Cups", 1],
      ["sofa", "couch", 0.9],
    ]);
    expect(score.S_obj).toBeCloseTo(95);
  });

  it("a missing object lowers S_obj by its share", () => {
    const score = scoreStructured({ objects: key.objects.filter((object) => object.category !== "sink"), text: "" }, key);
    expect(score.S_obj).toBeCloseTo(75);
    // the sink's description counts 0: S_att is the mean over every annotated object with description words
    expect(score.S_att).toBeCloseTo((5 + 5 + 5 + 0) / 4);
  });

  it("relations pointing at the wrong object score low", () => {
    const wrong = key.objects.map((object) => (object.category === "cabbage" ? { ...object, relation: ["cabbage in sink"] } : object));
    const right = scoreStructured(exact, key);
    const score = scoreStructured({ objects: wrong, text: "" }, key);
    // cabbage's only relation points at the sink instead of the colander: its relation score is 0
    expect(score.S_rel).toBeCloseTo((5 + 0 + 5) / 3);
    expect(score.S_rel!).toBeLessThan(right.S_rel!);
  });

  it("scores free text through the same path", () => {
    const answer = parseExploreModelAnswer("A white ceramic bowl is on the kitchen counter next to the sink. Shredded green cabbage is in the colander.")!;
    expect(answer.objects).toEqual([]);
    const score = scoreStructured(answer, key);
    expect(score.source).toBe("text");
    expect(score.S_obj).toBeGreaterThan(70);
    expect(score.S_rel!).toBeGreaterThan(2);
    expect(score.S_uni).toBeGreaterThan(50);
  });

  it("refines by one pass of mutual maxima (ties keep the first column; no second pass)", () => {
    expect(
      matchByMutualMaxima([
        [1, 1],
        [1, 1],
      ]).map((pair) => [pair.annotated, pair.predicted]),
    ).toEqual([
      [0, 0],
      [1, 0],
    ]);
    expect(
      matchByMutualMaxima([
        [0.9, 0.8],
        [0.95, 0],
      ]).map((pair) => [pair.annotated, pair.predicted]),
    ).toEqual([[1, 0]]);
    expect(
      matchByMutualMaxima([
        [1, 0.7],
        [0.9, 0.8],
      ]).map((pair) => [pair.annotated, pair.predicted]),
    ).toEqual([[0, 0]]);
  });

  it("S_abn uses the key states", () => {
    const abnormal = exploreSceneKeySchema.parse({ objects: [{ category: "faucet", description: "running" }], keyStates: ["the faucet is left running"] });
    const score = scoreStructured({ objects: [], text: "The faucet is left running." }, abnormal);
    expect(score.S_key).toBeCloseTo(5);
    expect(score.S_abn).toBeCloseTo(0.1 * score.S_uni + 90);
  });
});

describe("explore-scene answers and views", () => {
  it("validates relations against the answer's objects and names the field", () => {
    const result = exploreSceneAnswerSchema.safeParse({
      objects: [
        { category: "bowl", description: "", relation: ["bowl.0 on counter.0"] },
        { category: "bowl", description: "", relation: ["bowl on counter", "bowl.1 in fridge"] },
        { category: "counter", description: "", relation: [] },
      ],
      text: "",
    });
    expect(result.success).toBe(false);
    const issues = result.error!.issues.map((issue) => [issue.path.join("."), issue.message]);
    expect(issues).toContainEqual(["objects.1.relation.0", expect.stringContaining("belongs to bowl.1 but its subject is bowl")]);
    expect(issues).toContainEqual(["objects.1.relation.1", expect.stringContaining("must end with an existing object")]);
    expect(issues.some(([field]) => field === "objects.0.relation.0")).toBe(false);
    expect(exploreSceneAnswerSchema.safeParse({ objects: [], text: "x" }).error!.issues[0].path).toEqual(["objects"]);
  });

  it("publicView never holds the key; agreement encodings code presence and S_uni", () => {
    const item = { id: "e1", kind: "explore-scene", public: { initialImage: "0001.jpg", actions: ["C picks up the bowl"] }, key, tags: {} };
    expect(JSON.stringify(exploreSceneModule.publicView(item))).not.toContain("ceramic");
    const score = scoreStructured({ objects: key.objects.slice(0, 2), text: "" }, key);
    const [presence, interval] = exploreSceneModule.agreementEncodings;
    expect(presence.units(exact, { key, score })).toEqual([
      { unit: "object-bowl", value: "present" },
      { unit: "object-cabbage", value: "present" },
      { unit: "object-colander", value: "absent" },
      { unit: "object-sink", value: "absent" },
    ]);
    expect(presence.units(exact)).toEqual([]);
    expect(interval.units(exact, { key, score })).toEqual([{ unit: "", value: score.S_uni }]);
  });

  it("yardstick score serves explore-scene: per-item score fields and aggregate means", () => {
    const items = [{ id: "e1", kind: "explore-scene", public: { initialImage: "a.jpg", actions: ["C opens the tap"] }, key, tags: { subset: "Short" } }];
    const answers = [
      { id: "e1", annotator: "p1", answer: exact },
      { id: "e1", annotator: "m", answer: "A bowl." },
    ];
    const out = JSON.parse(runScoreCommand(items.map((line) => JSON.stringify(line)).join("\n"), answers.map((line) => JSON.stringify(line)).join("\n")));
    expect(out.items[0]).toMatchObject({ id: "e1", annotator: "p1", scorer: "structured", S_uni: expect.closeTo(100) });
    expect(out.items[1].S_obj).toBeCloseTo(25);
    expect(out.aggregate.S_obj).toBeCloseTo((100 + 25) / 2);
    expect(Object.keys(out.aggregate).sort()).toEqual(["S_abn", "S_att", "S_key", "S_obj", "S_rel", "S_uni", "correctShare"]);
  });
});

describe("explore-scene free-text mode (study setting)", () => {
  const item = { id: "e1", kind: "explore-scene", public: { initialImage: "0001.jpg", actions: ["C picks up the bowl"] }, key, tags: {} };
  const freeText = { objects: [], text: "A white ceramic bowl is on the kitchen counter next to the sink." };

  it("validates the settings and fills the default", () => {
    const schema = exploreSceneModule.settingsSchema!;
    expect(schema.parse({})).toEqual({ freeText: false });
    expect(schema.parse({ freeText: true })).toEqual({ freeText: true });
    expect(schema.safeParse({ freeText: "yes" }).success).toBe(false);
    expect(schema.safeParse({ freetext: true }).success).toBe(false);
    expect(kindSettings({ "explore-scene": { freeText: true }, other: { x: 1 } }, "explore-scene")).toEqual({ freeText: true });
    expect(kindSettings({}, "explore-scene")).toEqual({ freeText: false });
    expect(kindSettings({ "explore-scene": { freeText: "yes" } }, "explore-scene")).toEqual({ freeText: false });
  });

  it("tells the page, and accepts only text in free-text mode and only objects otherwise", () => {
    expect(exploreSceneModule.publicView(item, { freeText: true })).toMatchObject({ freeText: true });
    expect(exploreSceneModule.publicView(item)).not.toHaveProperty("freeText");
    const free = exploreSceneModule.answerSchemaFor!(item, { freeText: true });
    const structured = exploreSceneModule.answerSchemaFor!(item, { freeText: false });
    expect(free.safeParse(freeText).success).toBe(true);
    expect(free.safeParse({ objects: [], text: "  " }).error!.issues[0].message).toBe("describe the final scene");
    expect(free.safeParse(exact).success).toBe(false);
    expect(structured.safeParse(freeText).success).toBe(false);
    expect(structured.safeParse({ objects: [{ category: "bowl", description: "white", relation: [] }], text: "The bowl is white." }).success).toBe(true);
  });

  it("scores the typed text as a model's free text: noun phrases as candidate objects", () => {
    const typed = exploreSceneModule.answerSchemaFor!(item, { freeText: true }).parse(freeText);
    const score = exploreSceneModule.score(typed, key, item);
    expect(score.source).toBe("text");
    expect(score.matched.map((pair) => pair.annotatedCategory).sort()).toEqual(["bowl", "sink"]);
    expect(score.S_obj).toBeCloseTo(50);
    expect(score.S_rel!).toBeGreaterThan(0);
  });

  it("shows the key after a practice item with its description as text", () => {
    const answer = exploreSceneModule.keyAnswer!(key);
    expect(answer.objects).toHaveLength(4);
    expect(answer.text).toContain("The bowl is white ceramic bowl with a smooth surface, on the kitchen counter and next to the sink.");
  });
});
