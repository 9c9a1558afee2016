import { describe, expect, it } from "vitest";
import { replayItemEvents } from "@/lib/tasks/item-state";
import { emptyExploreDraft, type ExploreDraft } from "@/lib/tasks/explore-scene/events";
import { EXPLORE_ANSWER_LIMITS, exploreSceneAnswerSchema, exploreSceneFreeTextAnswerSchema } from "@/lib/tasks/explore-scene";
import {
  describeExploreAnswer,
  exploreAnswerOf,
  exploreDraftFromAnswer,
  exploreDraftProblem,
  exploreMissing,
  exploreTextProblem,
  isFreeTextView,
  objectLabels,
  sceneText,
} from "@/components/tasks/explore-scene/explore-draft";
import { describeEvent } from "@/components/replay/describe-event";
import { trajectoryPayloadSchemas } from "@/lib/validations/annotate";

function draftOf(events: Array<{ type: string; payload: Record<string, unknown> }>): ExploreDraft {
  return replayItemEvents(events, emptyExploreDraft()).answer as ExploreDraft;
}
const add = (object: number, category: string, description = "") => ({ type: "scene_object_added", payload: { object, category, description, via: "click" } });
const relate = (subject: number, relation: string, object: number) => ({ type: "relation_added", payload: { subject, relation, object, via: "click" } });

describe("explore scene draft", () => {
  const scene = draftOf([
    add(0, "bowl", "white ceramic"),
    add(1, "Kitchen counter", "grey"),
    add(2, "bowl"),
    add(3, "sink"),
    relate(0, "on", 1),
    relate(0, "next to", 3),
    relate(2, "in", 3),
  ]);

  it("names objects category.k when a category repeats, else by the bare category", () => {
    expect(objectLabels(scene.objects)).toEqual([
      { ref: "bowl.0", label: "bowl 1" },
      { ref: "kitchen counter", label: "kitchen counter" },
      { ref: "bowl.1", label: "bowl 2" },
      { ref: "sink", label: "sink" },
    ]);
  });

  it("generates one sentence per object", () => {
    expect(sceneText(scene)).toBe(
      "The bowl 1 is white ceramic, on the kitchen counter and next to the sink. The kitchen counter is grey. The bowl 2 is in the sink. There is a sink.",
    );
  });

  it("builds an answer the kind's schema accepts", () => {
    const answer = exploreAnswerOf(scene);
    expect(answer?.objects.map((o) => o.relation)).toEqual([["bowl.0 on kitchen counter", "bowl.0 next to sink"], [], ["bowl.1 in sink"], []]);
    expect(exploreSceneAnswerSchema.safeParse(answer).success).toBe(true);
    expect(describeExploreAnswer(answer)).toBe("4 objects: bowl (white ceramic), Kitchen counter (grey), bowl, sink; 3 relations");
  });

  it("says what is missing until the answer is valid", () => {
    expect(exploreDraftProblem(emptyExploreDraft())).toBe("Add at least one object of the final scene");
    expect(exploreMissing(null)).toBe("Add at least one object of the final scene");
    const unnamed = draftOf([add(0, "bowl"), { type: "scene_object_edited", payload: { object: 0, field: "category", value: " " } }]);
    expect(exploreDraftProblem(unnamed)).toBe("Object 1 needs a category");
    expect(exploreAnswerOf(unnamed)).toBeNull();
    expect(exploreDraftProblem(draftOf([add(0, "bowl")]))).toBe("");
  });

  it("shows an answer or a key again as a draft", () => {
    const answer = exploreAnswerOf(scene)!;
    const again = exploreDraftFromAnswer(answer);
    expect(exploreAnswerOf(again)).toEqual(answer);
    const key = exploreDraftFromAnswer({ objects: [{ category: "bowl", description: "", relation: ["bowl on table"] }] });
    expect(key.objects[0].relations).toEqual([{ relation: "bowl on table", target: -1 }]);
  });

  it("has payload schemas and replay descriptions for its events", () => {
    expect(trajectoryPayloadSchemas.scene_object_added.safeParse({ object: 0, category: "bowl", description: "", via: "keyboard" }).success).toBe(true);
    expect(trajectoryPayloadSchemas.relation_added.safeParse({ subject: 0, relation: " ", object: 1, via: "click" }).success).toBe(false);
    expect(trajectoryPayloadSchemas.actions_scrolled.safeParse({ first: 3, last: 20 }).success).toBe(true);
    expect(describeEvent({ type: "relation_added", payload: { subject: 0, relation: "on", object: 1, via: "click" } })).toBe(
      'Related object #0 "on" object #1 (click)',
    );
    expect(describeEvent({ type: "actions_scrolled", payload: { first: 3, last: 20 } })).toBe("Reading actions 4–21");
  });

  it("free-text mode: the typed text is the answer, recorded as scene_text_edited", () => {
    const typed = draftOf([
      { type: "scene_text_edited", payload: { value: "A bowl" } },
      { type: "scene_text_edited", payload: { value: " A white bowl on the counter. " } },
    ]);
    expect(typed.text).toBe(" A white bowl on the counter. ");
    expect(exploreAnswerOf(typed, true)).toEqual({ objects: [], text: "A white bowl on the counter." });
    expect(exploreSceneFreeTextAnswerSchema.safeParse(exploreAnswerOf(typed, true)).success).toBe(true);
    expect(exploreAnswerOf(emptyExploreDraft(), true)).toBeNull();
    expect(exploreMissing(emptyExploreDraft(), true)).toBe("Describe the final scene in the text box");
    expect(exploreMissing(typed, true)).toBe("");
    // the same draft in structured mode still needs objects
    expect(exploreAnswerOf(typed)).toBeNull();
    expect(isFreeTextView({ initialImage: "a.jpg", actions: ["x"], freeText: true })).toBe(true);
    expect(isFreeTextView({ initialImage: "a.jpg", actions: ["x"] })).toBe(false);
    // practice feedback and replay: a free-text answer shows its text again
    expect(exploreDraftFromAnswer({ objects: [], text: "A bowl." }).text).toBe("A bowl.");
    expect(describeExploreAnswer({ objects: [], text: "A bowl." })).toBe('free text: "A bowl."');
    expect(trajectoryPayloadSchemas.scene_text_edited.safeParse({ value: "x".repeat(20_001) }).success).toBe(false);
    expect(describeEvent({ type: "scene_text_edited", payload: { value: "A bowl." } })).toBe('Description typed (7 characters): "A bowl."');
  });

  it("says the answer's caps before the server would refuse the answer", () => {
    const objects = Array.from({ length: EXPLORE_ANSWER_LIMITS.objects + 1 }, (_, i) => ({ id: i, category: `thing ${i}`, description: "", relations: [] }));
    const draft = { ...emptyExploreDraft(), objects, nextId: objects.length };
    expect(exploreDraftProblem(draft)).toBe(`At most ${EXPLORE_ANSWER_LIMITS.objects} objects: remove 1`);
    expect(exploreAnswerOf(draft)).toBeNull();
    const wordy = {
      ...emptyExploreDraft(),
      objects: [{ id: 0, category: "bowl", description: "x".repeat(EXPLORE_ANSWER_LIMITS.descriptionChars + 1), relations: [] }],
      nextId: 1,
    };
    expect(exploreDraftProblem(wordy)).toContain("Object 1: a category has at most");
    expect(exploreTextProblem({ ...emptyExploreDraft(), text: "x".repeat(EXPLORE_ANSWER_LIMITS.freeTextChars + 1) })).toContain("Shorten the description");
  });
});
