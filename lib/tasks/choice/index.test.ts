import { describe, expect, it } from "vitest";
import { aggregateChoice, choiceItemSchema, choiceModule, parseChoiceModelAnswer, scoreChoice, type ChoicePublic } from "@/lib/tasks/choice";
import { formatIssues } from "@/lib/tasks/format-issues";

const pub: ChoicePublic = {
  question: "Which is nearest to the door?",
  options: [
    { id: "chair", text: "chair" },
    { id: "table", text: "table" },
    { id: "lamp", text: "lamp" },
    { id: "bed", image: "img/bed.png" },
  ],
};

describe("choice items", () => {
  it("takes 2-9 options with unique ids, text or an image each, and a key naming one of them (or none: withheld)", () => {
    expect(choiceItemSchema.safeParse({ public: pub, key: { answer: "lamp" } }).success).toBe(true);
    expect(choiceItemSchema.safeParse({ public: pub, key: {} }).success).toBe(true);
    const problems = (value: unknown) => {
      const parsed = choiceItemSchema.safeParse(value);
      return parsed.success ? "" : formatIssues(parsed.error, "");
    };
    expect(problems({ public: pub, key: { answer: "sofa" } })).toMatch(/key\.answer.*"sofa" is not an option id \(chair, table, lamp, bed\)/);
    expect(problems({ public: { ...pub, options: [...pub.options, { id: "chair", text: "again" }] }, key: {} })).toMatch(/options\.4\.id|options\[4\]\.id/);
    expect(problems({ public: { ...pub, options: [{ id: "a", text: "x" }] }, key: {} })).toMatch(/at least 2 options/);
    expect(problems({ public: { ...pub, options: Array.from({ length: 10 }, (_, i) => ({ id: `o${i}`, text: "x" })) }, key: {} })).toMatch(/at most 9 options/);
    expect(problems({ public: { ...pub, options: [{ id: "a" }, { id: "b", text: "b" }] }, key: {} })).toMatch(/text or an image/);
  });

  it("shows no key and maps option images and media", () => {
    const mapped = choiceModule.mapImages(
      { public: { ...pub, media: { video: "v/scene.mp4" } }, key: { answer: "bed" } },
      (ref) => `/api/assets/${ref.length}`,
    );
    expect(mapped.public.options[3].image).toBe("/api/assets/11");
    expect(mapped.public.media?.video).toBe("/api/assets/11");
    const view = choiceModule.publicView({ id: "q1", kind: "choice", public: pub, key: { answer: "bed", note: "secret" }, tags: {} });
    expect(JSON.stringify(view)).not.toContain("secret");
    expect(view).toMatchObject({ shuffle: true, options: pub.options });
  });

  it("accepts only the item's option ids from people", () => {
    const schema = choiceModule.answerSchemaFor!({ id: "q1", kind: "choice", public: pub, key: {}, tags: {} });
    expect(schema.safeParse({ choice: "lamp" }).success).toBe(true);
    expect(schema.safeParse({ choice: "sofa" }).success).toBe(false);
    expect(schema.safeParse({ choice: "lamp", extra: 1 }).success).toBe(false);
  });
});

describe("choice scoring", () => {
  it("scores the option id, or a model's letter in the item's own order; withheld items are not scored", () => {
    expect(scoreChoice({ choice: "lamp" }, { answer: "lamp" }, { public: pub })).toEqual({ correct: true, score: 1, options: 4 });
    expect(scoreChoice({ choice: "bed" }, { answer: "lamp" }, { public: pub })).toEqual({ correct: false, score: 0, options: 4 });
    expect(scoreChoice({ letter: "C" }, { answer: "lamp" }, { public: pub })).toMatchObject({ correct: true, score: 1 });
    expect(scoreChoice({ letter: "E" }, { answer: "lamp" }, { public: pub })).toMatchObject({ correct: false, score: 0 });
    expect(scoreChoice({ choice: "lamp" }, {}, { public: pub })).toEqual({ correct: null, score: null, options: 4 });
    expect(choiceModule.correct({ correct: null, score: null, options: 4 })).toBeNull();
  });

  it("reports accuracy with chance (mean 1/n) over the scored answers only", () => {
    const aggregate = aggregateChoice([
      { correct: true, score: 1, options: 2 },
      { correct: false, score: 0, options: 4 },
      { correct: null, score: null, options: 5 },
    ]);
    expect(aggregate).toEqual({ accuracy: 0.5, chance: (1 / 2 + 1 / 4) / 2 });
    expect(aggregateChoice([])).toEqual({ accuracy: null, chance: null });
  });

  it("reads model outputs as VSI-Bench does: one letter strict, the letter before the first space recoverable", () => {
    expect(parseChoiceModelAnswer("B")).toEqual({ answer: { letter: "B" }, mode: "strict" });
    expect(parseChoiceModelAnswer(" c\n")).toEqual({ answer: { letter: "C" }, mode: "strict" });
    expect(parseChoiceModelAnswer("B. chair")).toEqual({ answer: { letter: "B" }, mode: "recoverable" });
    expect(parseChoiceModelAnswer("D.. because")).toEqual({ answer: { letter: "D" }, mode: "recoverable" });
    expect(parseChoiceModelAnswer("The answer is B")).toMatchObject({ answer: null, mode: "fail" });
    expect(parseChoiceModelAnswer("(B)")).toEqual({ answer: { letter: "B" }, mode: "strict" });
    expect(parseChoiceModelAnswer(" (c) ")).toEqual({ answer: { letter: "C" }, mode: "strict" });
    expect(parseChoiceModelAnswer("(B) chair")).toMatchObject({ answer: null, mode: "fail" });
    expect(parseChoiceModelAnswer({ choice: "lamp" })).toEqual({ answer: { choice: "lamp" }, mode: "strict" });
    expect(parseChoiceModelAnswer(3)).toMatchObject({ answer: null, mode: "fail" });
  });

  it("reads an integer as the option of that id (EgoSchema's 0-4, Perception Test's answer_id), and nothing else as one", () => {
    const pub: ChoicePublic = { question: "q", options: ["a", "b", "c"].map((text, i) => ({ id: String(i), text })) };
    expect(parseChoiceModelAnswer(2, { public: pub })).toEqual({ answer: { choice: "2" }, mode: "strict" });
    expect(parseChoiceModelAnswer(3, { public: pub })).toMatchObject({ answer: null, mode: "fail" });
    expect(parseChoiceModelAnswer(1.5, { public: pub })).toMatchObject({ answer: null, mode: "fail" });
    expect(scoreChoice(parseChoiceModelAnswer(2, { public: pub }).answer!, { answer: "2" }, { public: pub })).toMatchObject({ correct: true });
  });

  it("scores its unparsed answer wrong against every key", () => {
    const pub: ChoicePublic = { question: "q", options: ["a", "b"].map((text, i) => ({ id: String(i), text })) };
    const item = { id: "x", kind: "choice", public: pub, key: {}, tags: {} };
    for (const answer of ["0", "1"]) expect(scoreChoice(choiceModule.unparsedAnswer!(item), { answer }, item)).toMatchObject({ correct: false, score: 0 });
  });
});

describe("choice correctness", () => {
  it("is unknown (null), not wrong, on an item without a key", () => {
    const withheld = scoreChoice({ choice: "lamp" }, {}, { public: pub });
    expect(choiceModule.correct(withheld)).toBeNull();
    expect(choiceModule.correct(scoreChoice({ choice: "lamp" }, { answer: "lamp" }, { public: pub }))).toBe(true);
    expect(choiceModule.correct(scoreChoice({ choice: "bed" }, { answer: "lamp" }, { public: pub }))).toBe(false);
  });
});

describe("model outputs parsed by the benchmark's released parser for its items", () => {
  const item = (source: string | null) => ({ id: "q", kind: "choice", public: pub, key: { answer: "table" }, tags: source ? { source } : {} });

  it("VSI-Bench items: the text before the first space (split(' ')[0]), so a leading space reads nothing and scores 0", () => {
    const vsi = item("vsi-bench");
    const leading = parseChoiceModelAnswer(" B", vsi);
    expect(leading.mode).toBe("fail");
    expect(leading.answer).not.toBeNull();
    expect(scoreChoice(leading.answer!, vsi.key, vsi)).toMatchObject({ correct: false, score: 0 });
    expect(parseChoiceModelAnswer("B", vsi)).toEqual({ answer: { letter: "B" }, mode: "strict" });
    expect(parseChoiceModelAnswer("B. table", vsi)).toEqual({ answer: { letter: "B" }, mode: "recoverable" });
    expect(scoreChoice(parseChoiceModelAnswer("B.", vsi).answer!, vsi.key, vsi)).toMatchObject({ correct: true });
    // other items keep the lenient reading (the whole text trimmed)
    expect(parseChoiceModelAnswer(" B", item(null))).toEqual({ answer: { letter: "B" }, mode: "strict" });
  });

  it("BLINK items: 'B' or '(B)' whole, or the one '(B)' token of the text or of its last paragraph (analyze_answer)", () => {
    const blink = item("blink");
    expect(parseChoiceModelAnswer("(B)", blink)).toEqual({ answer: { letter: "B" }, mode: "strict" });
    expect(parseChoiceModelAnswer("B", blink)).toEqual({ answer: { letter: "B" }, mode: "strict" });
    expect(parseChoiceModelAnswer("The second image matches.\n\nThe correct choice is:\n(B) the table", blink)).toEqual({
      answer: { letter: "B" },
      mode: "recoverable",
    });
    // (A) and (C) in the reasoning, (C) alone in the last paragraph
    expect(parseChoiceModelAnswer("(A) is wrong and (C) is right.\n\nAnswer: (C)", blink)).toEqual({ answer: { letter: "C" }, mode: "recoverable" });
    // BLINK asks GPT-3.5-turbo to match these; not run here: refused, naming why
    const undecided = parseChoiceModelAnswer("(A) or (B)", blink);
    expect(undecided.answer).toBeNull();
    expect(undecided.reason).toMatch(/GPT-3\.5/);
    expect(parseChoiceModelAnswer("B. table", blink).answer).toBeNull();
    // only the item's options count: (E) on a 4-option item is no choice
    expect(parseChoiceModelAnswer("I pick (E) or maybe (B)", blink)).toEqual({ answer: { letter: "B" }, mode: "recoverable" });
    expect(scoreChoice(parseChoiceModelAnswer("(B)", blink).answer!, blink.key, blink)).toMatchObject({ correct: true });
  });
});
