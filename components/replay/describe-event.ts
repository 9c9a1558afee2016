import { letterOf } from "@/components/tasks/shared/types";

/**
 * One trajectory event in words, for the replay timeline ("image C → step 2 (drag)"). Pure.
 * `name` names a candidate the way the task shows it ("image C", "action B").
 */
export function describeEvent(event: { type: string; payload: unknown }, name: (candidate: number) => string = (c) => letterOf(c), percent = false): string {
  const p = (event.payload ?? {}) as Record<string, unknown>;
  const num = (key: string) => (typeof p[key] === "number" ? (p[key] as number) : null);
  const step = (key: string) => {
    const value = num(key);
    return value === null ? "?" : String(value + 1);
  };
  const cand = (key: string) => {
    const value = num(key);
    return value === null ? "?" : name(value);
  };
  const via = typeof p.via === "string" ? ` (${p.via})` : "";
  if (event.type === "play_step") {
    // interactive kinds (lib/play.ts): the action as sent, and whether the scene took it
    const action = p.action && typeof p.action === "object" ? (p.action as { name?: unknown; args?: unknown }) : null;
    const args = Array.isArray(action?.args) && action.args.length > 0 ? `(${action.args.join(", ")})` : "";
    return `Step ${num("seq") ?? "?"}: ${action && typeof action.name === "string" ? `${action.name.replace(/_/g, " ")}${args}` : "an action"}${p.valid === false ? " — cannot do that here" : ""}`;
  }
  switch (event.type) {
    case "item_shown":
      return p.resumed ? "Item shown again (resumed)" : "Item shown";
    case "image_zoomed": {
      const role = String(p.role ?? "image");
      const index = num("index");
      const what = role === "storyboard" ? "the whole storyboard" : role === "composite" ? "the item image" : role === "initial" ? "the current state" : role === "candidate" ? (index === null ? "a candidate" : name(index)) : role === "slot" ? `the image in step ${step("index")}` : `observation ${index === null ? "?" : index + 1}`;
      return `Opened ${what} large`;
    }
    case "frame_zoomed":
      return `Opened frame ${step("frame")} of the storyboard large${via}`;
    case "choice_made":
      return `Chose ${String(p.choice ?? "?")}${typeof p.previous === "string" ? ` (was ${p.previous})` : ""}${via}`;
    case "verdict_made":
      return `Verdict ${String(p.verdict ?? "?")}${typeof p.previous === "string" ? ` (was ${p.previous})` : ""}${via}`;
    case "scene_edited": {
      const path = String(p.path ?? "?");
      if (p.op === "add") return `Added ${describeSceneObject(p.value)}${via}`;
      if (p.op === "remove") return `Removed ${path.replace("objects.", "object #").replace(/#(\d+)/, (_, i: string) => `#${Number(i) + 1}`)}${via}`;
      return `Set ${path} = ${JSON.stringify(p.value)}${via}`;
    }
    case "scene_object_added":
      return `Added object #${num("object") ?? "?"} ${JSON.stringify(String(p.category ?? ""))}${p.description ? ` (${String(p.description)})` : ""}${via}`;
    case "scene_object_removed":
      return `Removed object #${num("object") ?? "?"}${via}`;
    case "scene_object_edited":
      return `Set ${String(p.field ?? "?")} of object #${num("object") ?? "?"} = ${JSON.stringify(String(p.value ?? ""))}${via}`;
    case "relation_added":
      return `Related object #${num("subject") ?? "?"} ${JSON.stringify(String(p.relation ?? ""))} object #${num("object") ?? "?"}${via}`;
    case "relation_removed":
      return `Removed relation ${step("index")} of object #${num("subject") ?? "?"}${via}`;
    case "actions_scrolled":
      return `Reading actions ${step("first")}–${step("last")}`;
    case "actions_searched":
      return p.query ? `Filtered the actions for ${JSON.stringify(String(p.query))}` : "Cleared the action filter";
    case "scene_text_edited": {
      const value = String(p.value ?? "");
      return `Description typed (${value.length} characters): ${JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value)}`;
    }
    case "image_closed":
      return `Closed the large image${typeof p.via === "string" ? ` (${p.via})` : ""}`;
    case "candidate_picked":
      return `Picked up ${cand("candidate")}${num("fromSlot") !== null ? ` from step ${step("fromSlot")}` : ""}${via}`;
    case "pick_cancelled":
      return `Let go of ${cand("candidate")} outside the steps`;
    case "slot_filled": {
      const from = num("fromSlot") !== null ? ` (moved from step ${step("fromSlot")})` : "";
      const replaced = num("replaced") !== null ? `, replacing ${cand("replaced")}` : "";
      return `${cand("candidate")} → step ${step("slot")}${from}${replaced}${via}`;
    }
    case "slots_swapped":
      return `Swapped steps ${step("from")} and ${step("to")}${via}`;
    case "slot_cleared":
      return `Cleared step ${step("slot")} (${cand("candidate")})${via}`;
    case "note_added":
      return `Noted ${String(p.object ?? "?")}${typeof p.area === "string" ? ` in ${p.area}` : ""}${p.via === "auto" ? " (seen, filled in)" : ` (${String(p.source ?? "guess")})${via}`}`;
    case "note_edited":
      return `Note on ${String(p.object ?? "?")}: ${String(p.field ?? "?")} = ${JSON.stringify(p.value ?? null)}${via}`;
    case "note_removed":
      return `Removed the note on ${String(p.object ?? "?")}${via}`;
    case "episode_finished":
      return `Every task done (${num("tasks") ?? "?"} tasks)`;
    case "belief_changed": {
      // ESI-Bench's "my current answer" (lib/esi/belief.ts)
      const choice = p.choice;
      const answer = typeof choice === "string" ? choice : choice && typeof choice === "object" ? Object.entries(choice as Record<string, unknown>).map(([part, value]) => `${part}=${String(value)}`).join(", ") : "none";
      const sure = typeof p.confidence === "number" ? `, ${p.confidence}${percent ? "%" : " of 5"} sure` : "";
      return `Current answer: ${answer}${sure} (at step ${num("step") ?? "?"})${via}`;
    }
    case "confidence_changed":
      return `Confidence ${p.value}${percent ? "%" : ""}${p.previous !== null && p.previous !== undefined ? ` (was ${p.previous}${percent ? "%" : ""})` : ""}`;
    case "submitted":
      return "Submitted";
    case "submission_reopened":
      return "Reopened: the submission never reached the server";
    case "page_hidden":
      return "Left the page (hidden)";
    case "page_visible":
      return "Back on the page";
    case "idle_shown":
      return `“Still working?” shown after ${Math.round((num("idleMs") ?? 0) / 1000)} s`;
    case "idle_dismissed":
      return "“Still working?” dismissed";
    default:
      return event.type;
  }
}

function describeSceneObject(value: unknown): string {
  const o = (value ?? {}) as { type?: unknown; color?: unknown; pos?: unknown; state?: unknown };
  const pos = Array.isArray(o.pos) ? ` at [${o.pos.join(", ")}]` : "";
  return `a ${String(o.color ?? "")} ${String(o.type ?? "object")}${pos}${o.type === "door" ? ` (state ${String(o.state)})` : ""}`.replace("a  ", "a ");
}

/** "1:05.3" from milliseconds */
export function formatClock(ms: number): string {
  const negative = ms < 0;
  const total = Math.abs(ms) / 1000;
  const minutes = Math.floor(total / 60);
  const seconds = total - minutes * 60;
  return `${negative ? "-" : ""}${minutes}:${seconds.toFixed(1).padStart(4, "0")}`;
}

/** "4.2 s", "3 min 5 s" */
export function formatDuration(ms: number): string {
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms - minutes * 60_000) / 1000);
  return minutes >= 60 ? `${Math.floor(minutes / 60)} h ${minutes % 60} min` : `${minutes} min ${seconds} s`;
}
