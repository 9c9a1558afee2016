import { describe, expect, it } from "vitest";
import { buildEsiDemo, buildRoomGraph, KITCHEN, referencePath } from "@/scripts/demo-data/esi/esi-scenes";
import { renderViewSvg } from "@/scripts/demo-data/esi/esi-render";
import { moveTo, visibleObjects } from "@/scripts/demo-data/esi/esi-world";
import { followActions } from "@/lib/tasks/esi-explore/graph";
import { esiItemSchema } from "@/lib/tasks/esi-explore";

describe("ESI demo scenes", () => {
  const built = buildEsiDemo();

  it("makes valid items of the paper's kinds, with answers from the scenes", () => {
    expect(built.items.map((item) => [item.id, item.key.answer, item.practice])).toEqual([
      ["esi-demo-hall-plant", "Yes", true],
      ["esi-demo-kitchen-apples", "5", false],
      ["esi-demo-living-left-right", { A: "left", C: "right" }, false],
      ["esi-demo-bedroom-key-blue", "Yes", false],
      ["esi-demo-bedroom-key-red", "No", false],
      ["esi-demo-study-on-top", "red box", false],
    ]);
    for (const item of built.items) {
      const parsed = esiItemSchema.safeParse({ public: item.public, key: item.key });
      expect(parsed.success, `${item.id}: ${parsed.error?.message}`).toBe(true);
      expect(item.tags.category).toBeTruthy();
      expect(item.tags.subcategory).toBeTruthy();
    }
  });

  it("marks contrastive states, never the first view, and leads the reference trajectory to one", () => {
    for (const item of built.items) {
      const graph = item.key.graph;
      expect(graph.states[graph.initial].contrastive).toBe(false);
      const path = referencePath(graph);
      expect(graph.states[path[path.length - 1]].contrastive).toBe(true);
      expect(item.key.views.gt).toEqual(path.map((id) => graph.states[id].image));
      expect(item.key.views.multi.length).toBeGreaterThan(2);
      expect(new Set(Object.values(graph.states).map((s) => s.viewpoint)).size).toBeGreaterThan(1);
    }
  });

  it("picking up the bowl shows the apple under it; putting it back hides it again", () => {
    const kitchen = built.items.find((item) => item.id === "esi-demo-kitchen-apples")!;
    const graph = kitchen.key.graph;
    expect(graph.states[graph.initial].objects).toContain("bowl_1");
    expect(graph.states[graph.initial].objects).not.toContain("apple_4");
    const path = followActions(graph, ["pick_up(bowl_1)"])!;
    expect(graph.states[path[1]].objects).toContain("apple_4");
    expect(graph.states[path[1]].holding).toEqual(["bowl_1"]);
    expect(graph.states[path[1]].contrastive).toBe(true);
    expect(followActions(graph, ["pick_up(bowl_1)", "put_on(bowl_1,table_1)"])!.at(-1)).toBe(graph.initial);
    // the stool's apple is out of the first view, to the right
    const right = followActions(graph, ["turn_right"])!;
    expect(graph.states[right[1]].objects).toContain("apple_5");
  });

  it("moves on the grid but not through furniture", () => {
    // p1 (2.5, 1.3) and p4 (2.5, 3.9) have the table between them
    expect(moveTo(KITCHEN, 4, [0, -1])).toBeNull();
    expect(moveTo(KITCHEN, 3, [0, -1])).toBe(0);
    expect(moveTo(KITCHEN, 4, [1, 0])).toBe(5);
    expect(moveTo(KITCHEN, 5, [1, 0])).toBeNull();
    const { graph } = buildRoomGraph(KITCHEN, { position: 4, heading: "N", holding: null });
    expect(graph.edges[graph.initial].move_forward).toBeUndefined();
    expect(graph.edges[graph.initial].turn_up).toBeUndefined();
  });

  it("draws legible first-person views, the same every time", () => {
    const svg = renderViewSvg(KITCHEN, { position: 4, heading: "N", holding: "bowl_1" });
    expect(svg).toContain("facing north");
    expect(svg).toContain("IN HAND");
    expect(svg.match(/>apple</g)?.length).toBe(4);
    expect(renderViewSvg(KITCHEN, { position: 4, heading: "N", holding: "bowl_1" })).toBe(svg);
    expect(visibleObjects(KITCHEN, { position: 4, heading: "N", holding: null })).not.toContain("apple_5");
    expect(buildEsiDemo().images.map((image) => image.path)).toEqual(built.images.map((image) => image.path));
  });
});
