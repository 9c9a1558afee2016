import { letterOf } from "@/components/tasks/shared/types";
import { describeKindEvent } from "@/lib/tasks/event-registry";

/**
 * One trajectory event in words, for the replay timeline ("image C → step 2 (drag)"). Pure. A kind's
 * own events are described by the kind (lib/tasks/<kind>/events.ts).
 * `name` names a candidate the way the task shows it ("image C", "action B").
 */
export function describeEvent(event: { type: string; payload: unknown }, name: (candidate: number) => string = (c) => letterOf(c), percent = false): string {
  const p = (event.payload ?? {}) as Record<string, unknown>;
  const num = (key: string) => (typeof p[key] === "number" ? (p[key] as number) : null);
  const step = (key: string) => {
    const value = num(key);
    return value === null ? "?" : String(value + 1);
  };
  const own = describeKindEvent(event, { name, percent });
  if (own !== null) return own;
  if (event.type === "play_step") {
    // interactive kinds (lib/annotate/play.ts): the action as sent, and whether the scene took it
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
      const what =
        role === "storyboard"
          ? "the whole storyboard"
          : role === "composite"
            ? "the item image"
            : role === "initial"
              ? "the current state"
              : role === "candidate"
                ? index === null
                  ? "a candidate"
                  : name(index)
                : role === "slot"
                  ? `the image in step ${step("index")}`
                  : `observation ${index === null ? "?" : index + 1}`;
      return `Opened ${what} large`;
    }
    case "image_closed":
      return `Closed the large image${typeof p.via === "string" ? ` (${p.via})` : ""}`;
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
