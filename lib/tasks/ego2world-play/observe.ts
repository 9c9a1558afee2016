import type { Value } from "@/lib/tasks/ego2world-play/syntax";
import { isPresent, type World } from "@/lib/tasks/ego2world-play/world";

/**
 * What a person observes of the hidden world: the objects whose `area` is the current
 * area (ids and labels), what is held, and a text summary of how the objects of this area changed
 * since the episode start, from the world diff. The summary says what changed, never the values:
 * those the person infers.
 */

export interface SeenObject {
  id: string;
  label: string;
}

export interface Observation {
  area: string;
  objects: SeenObject[];
  hand: SeenObject | null;
  changes: string[];
}

const labelOf = (world: World, id: string): string => String(world.objects[id]?.label ?? id);
const text = (value: Value): string => (value === null ? "null" : String(value));

function named(world: World, id: string): string {
  return `${id} (${labelOf(world, id)})`;
}

/** Lines such as "cup_01 (cup) was brought here", "bread_01 (bread) is gone", "cup_01 (cup): contents changed". */
export function changeSummary(initial: World, current: World, area: string): string[] {
  const lines: string[] = [];
  const hand = current.agent.hand;
  const ids = [...new Set([...Object.keys(initial.objects), ...Object.keys(current.objects)])].sort();
  for (const id of ids) {
    const was = initial.objects[id];
    const now = current.objects[id];
    const wasHere = was !== undefined && was.area === area;
    const isHere = now !== undefined && now.area === area;
    if (wasHere && !now) lines.push(`${named(initial, id)} is gone`);
    else if (wasHere && !isHere) lines.push(`${named(current, id)} ${hand === id ? "was picked up" : "was taken away"}`);
    else if (isHere && !was) lines.push(`${named(current, id)} is new here`);
    else if (isHere && !wasHere) lines.push(`${named(current, id)} was brought here`);
    else if (isHere && was && now) {
      const changed: string[] = [];
      if (now.in !== was.in) changed.push("container changed");
      if (now.on !== was.on) changed.push("support changed");
      if (now.amount !== was.amount) {
        changed.push(
          typeof now.amount === "number" && typeof was.amount === "number"
            ? now.amount > was.amount
              ? "amount went up"
              : "amount went down"
            : "amount changed",
        );
      }
      const words = [...new Set([...Object.keys(was.state), ...Object.keys(now.state)])].sort();
      for (const word of words) {
        if ((was.state[word] ?? null) !== (now.state[word] ?? null)) changed.push(`${word} changed`);
      }
      if (now.label !== was.label) changed.push("label changed");
      if (changed.length > 0) lines.push(`${named(current, id)}: ${changed.join(", ")}`);
    }
  }
  return lines;
}

/** The observation in the agent's current area. */
export function observe(initial: World, current: World): Observation {
  const area = text(current.agent.area);
  const hand = typeof current.agent.hand === "string" && isPresent(current, current.agent.hand) ? current.agent.hand : null;
  const objects = Object.entries(current.objects)
    .filter(([id, object]) => object.area === area && id !== hand)
    .map(([id, object]) => ({ id, label: String(object.label) }))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return {
    area,
    objects,
    hand: hand === null ? null : { id: hand, label: labelOf(current, hand) },
    changes: changeSummary(initial, current, area),
  };
}
