import { describe, expect, it } from "vitest";
import { miniEpisode } from "@/lib/tasks/ego2world-play/__fixtures__/mini-episode";
import { changeSummary, observe } from "@/lib/tasks/ego2world-play/observe";
import type { World } from "@/lib/tasks/ego2world-play/world";

function changed(mutate: (world: World) => void): World {
  const world = structuredClone(miniEpisode().world);
  mutate(world);
  return world;
}

describe("observation", () => {
  it("lists the objects whose area is the current area, and what is held, never states", () => {
    const world = changed((w) => {
      w.agent.hand = "cup_01";
      w.objects.cup_01.area = "held";
    });
    expect(observe(miniEpisode().world, world)).toEqual({
      area: "counter",
      objects: [{ id: "bread_01", label: "bread" }],
      hand: { id: "cup_01", label: "cup" },
      changes: ["cup_01 (cup) was picked up"],
    });
  });

  it("summarises arrivals, departures, new and gone objects, and which slots changed (not to what)", () => {
    const initial = miniEpisode().world;
    const world = changed((w) => {
      w.objects.knife_01.area = "counter"; // brought here
      delete w.objects.bread_01; // gone
      w.gone = ["bread_01"];
      w.objects.bread_slice_01 = { label: "bread_slice", area: "counter", in: null, on: null, amount: 0, state: {} };
      w.objects.cup_01.amount = 2;
      w.objects.cup_01.in = "sink_01";
      w.objects.cup_01.state.contents = "water";
    });
    const lines = changeSummary(initial, world, "counter");
    expect(lines).toEqual([
      "bread_01 (bread) is gone",
      "bread_slice_01 (bread_slice) is new here",
      "cup_01 (cup): container changed, amount went up, contents changed",
      "knife_01 (knife) was brought here",
    ]);
    expect(lines.join(" ")).not.toMatch(/water|sink_01|\b2\b/);
    // the drawer saw the knife leave (not to where)
    expect(changeSummary(initial, world, "drawer")).toEqual(["knife_01 (knife) was taken away"]);
  });
});
