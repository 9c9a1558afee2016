import { z } from "zod";
import { applySceneEdit, isSceneDraft, SCENE_EDIT_PATH, type SceneEditOp } from "@/lib/tasks/shared/gridwm/scene-form";
import { payloadField, pointerVia, viaSuffix } from "@/lib/tasks/shared/event-fields";
import type { KindEvents } from "@/lib/tasks/types";

const payloadSchemas = {
  /**
   * GridWM Task B: one edit of the scene form (lib/tasks/shared/gridwm/scene-form.ts): `set` a field
   * ("agent.pos" [x, y], "agent.dir", "agent.carrying", "front_cell.type", "front_cell.state",
   * "objects.<i>.type|color|state"), `add` an object ("objects"), `remove` one ("objects.<i>").
   */
  scene_edited: z.strictObject({
    op: z.enum(["set", "add", "remove"]),
    path: z.string().max(40).regex(SCENE_EDIT_PATH, "a scene form path"),
    value: z.json(),
    via: pointerVia,
  }),
} as const;

export type SceneEditedPayload = z.infer<typeof payloadSchemas.scene_edited>;

function describeSceneObject(value: unknown): string {
  const o = (value ?? {}) as { type?: unknown; color?: unknown; pos?: unknown; state?: unknown };
  const pos = Array.isArray(o.pos) ? ` at [${o.pos.join(", ")}]` : "";
  return `a ${String(o.color ?? "")} ${String(o.type ?? "object")}${pos}${o.type === "door" ? ` (state ${String(o.state)})` : ""}`.replace("a  ", "a ");
}

/** GridWM Task B: the answer is the scene draft after each edit. */
export const events = {
  payloadSchemas,
  reduce(state, event) {
    if (event.type !== "scene_edited") return null;
    if (!isSceneDraft(state.answer)) return {};
    const op = payloadField(event.payload, "op");
    const path = payloadField(event.payload, "path");
    if ((op !== "set" && op !== "add" && op !== "remove") || typeof path !== "string") return {};
    return { answer: applySceneEdit(state.answer, { op: op as SceneEditOp, path, value: payloadField(event.payload, "value") }) };
  },
  describe(event) {
    if (event.type !== "scene_edited") return null;
    const p = (event.payload ?? {}) as Record<string, unknown>;
    const via = viaSuffix(p);
    const path = String(p.path ?? "?");
    if (p.op === "add") return `Added ${describeSceneObject(p.value)}${via}`;
    if (p.op === "remove") return `Removed ${path.replace("objects.", "object #").replace(/#(\d+)/, (_, i: string) => `#${Number(i) + 1}`)}${via}`;
    return `Set ${path} = ${JSON.stringify(p.value)}${via}`;
  },
} satisfies KindEvents<typeof payloadSchemas>;
