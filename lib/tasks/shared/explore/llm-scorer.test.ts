import { beforeAll, describe, expect, it } from "vitest";
import { tokenize, wordSimilarity } from "@/lib/tasks/shared/explore/nlp";
import { finishExploreLlmScore, objectSentences, planExploreLlmScore } from "@/lib/tasks/shared/explore/llm-scorer";
import { exploreSceneKeySchema } from "@/lib/tasks/explore-scene";
import { scoreStructured, unifiedScore } from "@/lib/tasks/shared/explore/scorer";

// the tagger model and WordNet load once per process (seconds on a busy machine): not inside a test's 5 s
beforeAll(() => {
  tokenize("warm up");
  wordSimilarity("cup", "bowl");
}, 120_000);

const key = exploreSceneKeySchema.parse({
  objects: [
    { category: "bowl", description: "white ceramic bowl", relation: ["bowl on kitchen counter", "bowl next to sink"] },
    { category: "cabbage", description: "shredded green cabbage", relation: ["cabbage in colander"] },
    { category: "colander", description: "metal colander", relation: [] },
    { category: "sink", description: "", relation: [] },
  ],
});
const meta = { model: "test-model", promptVersion: "explore-v1" };

describe("explore LLM scorer plan", () => {
  it("writes one sentence per structured object and knows which sentences mention each object", () => {
    const { sentences, mentions } = objectSentences([
      { category: "bowl", description: "white ceramic", relation: ["bowl on counter", "bowl next to sink"] },
      { category: "counter", description: "", relation: [] },
      { category: "sink", description: "metal.", relation: [] },
    ]);
    expect(sentences).toEqual(["The bowl is white ceramic, on the counter and next to the sink.", "There is a counter.", "The sink is metal."]);
    expect(mentions).toEqual([[0], [0, 1], [0, 2]]);
  });

  it("asks for every matched object's attributes and relations, with the sentences that mention them, once per distinct prompt", () => {
    const plan = planExploreLlmScore(
      {
        objects: [],
        text: "A white ceramic bowl is on the kitchen counter next to the sink. Shredded green cabbage sits in the colander. The colander is metal.",
      },
      key,
    );
    expect(plan.source).toBe("text");
    expect(plan.S_obj).toBe(
      scoreStructured(
        {
          objects: [],
          text: "A white ceramic bowl is on the kitchen counter next to the sink. Shredded green cabbage sits in the colander. The colander is metal.",
        },
        key,
      ).S_obj,
    );
    const bowlSentence = "A white ceramic bowl is on the kitchen counter next to the sink.";
    const cabbageSentence = "Shredded green cabbage sits in the colander.";
    expect(plan.requests).toContainEqual({ aspect: "attributes", sentence: bowlSentence, phrase: "white ceramic bowl" });
    expect(plan.requests).toContainEqual({ aspect: "relations", sentence: bowlSentence, phrase: "bowl next to sink" });
    // the relation's object (colander) is matched: its sentences join the subject's
    expect(plan.requests).toContainEqual({ aspect: "relations", sentence: `${cabbageSentence} The colander is metal.`, phrase: "cabbage in colander" });
    expect(plan.requests).toContainEqual({ aspect: "attributes", sentence: `${cabbageSentence} The colander is metal.`, phrase: "metal colander" });
    // the sink has no description and no relation: nothing to ask
    expect(plan.requests.some((request) => request.phrase === "")).toBe(false);
    const ids = plan.requests.map((request) => JSON.stringify(request));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("turns 0-5 replies into S_att, S_rel and S_uni, keeping S_obj from the object matching", () => {
    const plan = planExploreLlmScore({ objects: key.objects, text: "" }, key);
    const fives = finishExploreLlmScore(
      plan,
      plan.requests.map(() => 5),
      meta,
    );
    expect(fives).toMatchObject({ scorer: "llm", model: "test-model", S_obj: 100, S_att: 5, S_rel: 5, S_uni: 100, correct: true });
    // attributes all 4, relations: the bowl's two relations 5 and 1, the cabbage's 3
    const scores = plan.requests.map((request) =>
      request.aspect === "attributes" ? 4 : request.phrase === "bowl next to sink" ? 1 : request.phrase === "bowl on kitchen counter" ? 5 : 3,
    );
    const score = finishExploreLlmScore(plan, scores, meta);
    expect(score.S_att).toBe(4);
    expect(score.S_rel).toBeCloseTo(((5 + 1) / 2 + 3) / 2);
    expect(score.S_uni).toBeCloseTo(unifiedScore(100, 4, 3));
    expect(score.relations).toContainEqual({ relation: "bowl next to sink", score: 1 });
    expect(() => finishExploreLlmScore(plan, [1], meta)).toThrow("needs");
  });

  it("a missing object lowers S_obj by its share; nothing matched gives 0 without a request", () => {
    const plan = planExploreLlmScore({ objects: key.objects.filter((object) => object.category !== "sink"), text: "" }, key);
    expect(plan.S_obj).toBeCloseTo(75);
    const nothing = planExploreLlmScore({ objects: [], text: "A dog runs." }, key);
    expect(nothing.requests).toEqual([]);
    expect(finishExploreLlmScore(nothing, [], meta)).toMatchObject({ S_obj: 0, S_att: 0, S_rel: 0, S_uni: 0 });
    // unmatched annotated objects count 0 in S_att and S_rel, so the parts and S_uni follow Eq. 1
    const partial = finishExploreLlmScore(
      plan,
      plan.requests.map(() => 5),
      meta,
    );
    expect(partial.S_att).toBeCloseTo(5);
    expect(partial.S_uni).toBeCloseTo(0.25 * 75 + 0.35 * 100 + 0.4 * 100);
  });

  it("scores a key state of an object with the states prompt against that object's sentences (Sec. 6), one of the scene against the whole description", () => {
    const perObject = exploreSceneKeySchema.parse({
      objects: [{ category: "faucet", description: "silver faucet" }, { category: "sink" }],
      keyStates: [{ state: "The water is flowing from the spout of the faucet.", object: 0 }],
    });
    const byObject = planExploreLlmScore({ objects: [], text: "The faucet is on. Water runs into the sink." }, perObject);
    expect(byObject.requests).toContainEqual({ aspect: "states", sentence: "The faucet is on.", phrase: "The water is flowing from the spout of the faucet." });
    const unmatched = planExploreLlmScore({ objects: [], text: "The sink is white." }, perObject);
    expect(unmatched.keyStates).toEqual([{ state: "The water is flowing from the spout of the faucet.", request: null }]);
    const abnormal = exploreSceneKeySchema.parse({ objects: [{ category: "faucet", description: "running" }], keyStates: ["the faucet is left running"] });
    const plan = planExploreLlmScore({ objects: [], text: "The faucet is on. Water runs into the sink." }, abnormal);
    expect(plan.requests).toContainEqual({ aspect: "states", sentence: "The faucet is on. Water runs into the sink.", phrase: "the faucet is left running" });
    const score = finishExploreLlmScore(
      plan,
      plan.requests.map(() => 4),
      meta,
    );
    expect(score.S_key).toBe(4);
    expect(score.S_abn).toBeCloseTo(0.1 * score.S_uni + 0.9 * 80);
  });
});
