import { describe, expect, it } from "vitest";
import { convertExploreInstance, subsetOf } from "@/lib/tasks/explore-scene/import";

const objects = [{ category: "bowl", description: "white bowl", relation: ["bowl on counter"] }];

describe("EXPLORE layout", () => {
  it("converts an object list with a sidecar actions file", () => {
    const line = convertExploreInstance({
      image: "0001.jpg",
      annotationFile: "0001.json",
      annotation: objects,
      actionsFile: "0001.actions.txt",
      actionsText: "C picks the bowl|C puts the bowl on the counter",
    });
    expect(line).toMatchObject({
      id: "0001",
      kind: "explore-scene",
      public: { initialImage: "0001.jpg", actions: ["C picks the bowl", "C puts the bowl on the counter"] },
      tags: { subset: "Other", actions: 2 },
    });
    expect(line.key.objects[0].relation).toEqual(["bowl on counter"]);
  });

  it("reads the release-style object with key states, and names file and field on errors", () => {
    const line = convertExploreInstance({
      image: "a.png",
      annotationFile: "a.json",
      annotation: { atomic_actions: ["x"], end_frame_info: objects, key_state: "faucet running" },
    });
    expect(line.key.keyStates).toEqual(["faucet running"]);
    expect(() => convertExploreInstance({ image: "a.png", annotationFile: "a.json", annotation: objects })).toThrow(
      "a.json: atomic_actions: no actions: add a.actions.txt",
    );
    expect(() => convertExploreInstance({ image: "a.png", annotationFile: "a.json", annotation: [{ description: "x" }], actionsText: "x" })).toThrow(
      /^a\.json: end_frame_info\[0\]\.category: /,
    );
    expect([subsetOf(11), subsetOf(150), subsetOf(694)]).toEqual(["Short", "Medium", "Long"]);
  });

  it("reads key states inside each object (Listings 13-14), keeps which object each belongs to, and tags the item abnormal", () => {
    const annotation = {
      atomic_actions: "C turns on the tap|C walks away",
      end_frame_info: [
        {
          category: "faucet",
          description: "silver faucet",
          relation: ["faucet on countertop"],
          key_state: "The water is flowing from the spout of the faucet.",
        },
        { category: "bottle", description: "green bottle", relation: ["bottle next to bottle"] },
        {
          category: "bottle",
          description: "clear bottle",
          relation: ["bottle next to bottle"],
          key_state: ["The bottle lies horizontally on the tablecloth."],
        },
      ],
      key_state: "The kitchen is flooding.",
    };
    const line = convertExploreInstance({ image: "c1.jpg", annotationFile: "c1.json", annotation });
    expect(line.key.keyStates).toEqual([
      "The kitchen is flooding.",
      { state: "The water is flowing from the spout of the faucet.", object: 0 },
      { state: "The bottle lies horizontally on the tablecloth.", object: 2 },
    ]);
    expect(line.key.objects[0]).not.toHaveProperty("key_state");
    expect(line.tags).toMatchObject({ abnormal: true });
    expect(
      convertExploreInstance({ image: "a.png", annotationFile: "a.json", annotation: { atomic_actions: ["x"], end_frame_info: objects } }).tags,
    ).not.toHaveProperty("abnormal");
    expect(() =>
      convertExploreInstance({
        image: "a.png",
        annotationFile: "a.json",
        annotation: { atomic_actions: ["x"], end_frame_info: [{ category: "faucet", key_state: 3 }] },
      }),
    ).toThrow("a.json: end_frame_info[0].key_state: expected a string or a list of strings");
  });
});
