import { miniEpisode } from "@/lib/tasks/ego2world-play/__fixtures__/mini-episode";

/** The same episode as an item line of kind ego2world-play (images are paths in a batch). */
export function miniEpisodeItem(id = "mini-1") {
  const spec = miniEpisode();
  return {
    id,
    kind: "ego2world-play",
    public: {
      title: "Mini kitchen",
      areas: { counter: { image: "img/counter.png" }, drawer: { image: "img/drawer.png" } },
      startArea: "counter",
      tasks: [
        { id: "t1", instruction: "Get the knife." },
        { id: "t2", instruction: "Slice the bread." },
      ],
      actions: [
        { name: "pick_up", params: ["x"] },
        { name: "put_down", params: ["x"] },
        { name: "slice", params: ["x", "t"] },
        { name: "fetch", params: ["x", "a"] },
      ],
    },
    key: { world: spec.world, rules: spec.rules, skills: spec.skills, tasks: spec.tasks },
    tags: { kitchen: "mini" },
    practice: false,
    gold: false,
  };
}
