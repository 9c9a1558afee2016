import type { EpisodeSpec } from "@/lib/tasks/ego2world-play/metrics";

/**
 * A hand-made two-task episode for tests: fetch the knife from the drawer, then slice the bread
 * on the counter (the loaf is destroyed, a slice created). Areas: counter, drawer.
 */
export function miniEpisode(): EpisodeSpec {
  return {
    areas: ["counter", "drawer"],
    world: {
      agent: { area: "counter", hand: null },
      objects: {
        knife_01: { label: "knife", area: "drawer", in: null, on: null, amount: 0, state: { portable: true } },
        bread_01: { label: "bread", area: "counter", in: null, on: null, amount: 0, state: { cut: "whole" } },
        cup_01: { label: "cup", area: "counter", in: null, on: null, amount: 0, state: { portable: true } },
      },
    },
    rules: [
      { action: "go_to", params: ["a"], pre: ["a = counter"], eff: ["here := counter"] },
      { action: "go_to", params: ["a"], pre: ["a = drawer"], eff: ["here := drawer"] },
      { action: "pick_up", params: ["x"], pre: ["hand = null", "x.area = here", "x.portable = true"], eff: ["hand := x", "x.area := held"] },
      { action: "put_down", params: ["x"], pre: ["hand = x"], eff: ["hand := null", "x.area := here"] },
      {
        action: "slice",
        params: ["x", "t"],
        pre: ["hand = t", "t.label = knife", "x.area = here", "x.cut = whole"],
        eff: ["create bread_slice area=here", "destroy x"],
      },
    ],
    skills: [{ name: "fetch", params: ["x", "a"], steps: ["go_to(a)", "pick_up(x)"] }],
    tasks: [
      { id: "t1", goal: ["hand = knife_01"], keyActions: ["pick_up(knife_01)"], reference: ["go_to(drawer)", "pick_up(knife_01)", "go_to(counter)"] },
      { id: "t2", goal: ["bread_slice_01.area = counter"], keyActions: ["slice(bread_01,knife_01)"], reference: ["slice(bread_01, knife_01)"] },
    ],
  };
}
