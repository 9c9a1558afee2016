import { describe, expect, it } from "vitest";
import { convertExploreInstance, subsetOf } from "@/lib/import/explore-layout";

const objects = [{ category: "bowl", description: "white bowl", relation: ["bowl on counter"] }];

describe("EXPLORE layout", () => {
  it("converts an object list with a sidecar actions file", () => {
    const line = convertExploreInstance({ image: "0001.jpg", annotationFile: "0001.json", annotation: objects, actionsFile: "0001.actions.txt", actionsText: "C picks the bowl|C puts the bowl on the counter" });
    expect(line).toMatchObject({ id: "0001", kind: "explore-scene", public: { initialImage: "0001.jpg", actions: ["C picks the bowl", "C puts the bowl on the counter"] }, tags: { subset: "Other", actions: 2 } });
    expect(line.key.objects[0].relation).toEqual(["bowl on counter"]);
  });

  it("reads the release-style object with key states, and names file and field on errors", () => {
    const line = convertExploreInstance({ image: "a.png", annotationFile: "a.json", annotation: { atomic_actions: ["x"], end_frame_info: objects, key_state: "faucet running" } });
    expect(line.key.keyStates).toEqual(["faucet running"]);
    expect(() => convertExploreInstance({ image: "a.png", annotationFile: "a.json", annotation: objects })).toThrow("a.json: atomic_actions: no actions: add a.actions.txt");
    expect(() => convertExploreInstance({ image: "a.png", annotationFile: "a.json", annotation: [{ description: "x" }], actionsText: "x" })).toThrow(/^a\.json: end_frame_info\[0\]\.category: /);
    expect([subsetOf(11), subsetOf(150), subsetOf(694)]).toEqual(["Short", "Medium", "Long"]);
  });
});
