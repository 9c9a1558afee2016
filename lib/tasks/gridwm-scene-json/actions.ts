import { applySceneEdit, isSceneDraft, type SceneEditOp } from "@/lib/tasks/shared/gridwm/scene-form";
import type { SceneEditedPayload } from "@/lib/tasks/gridwm-scene-json/events";
import type { AnswerContext, ChoiceVia } from "@/lib/tasks/shared/gridwm/actions";

/** What Task B's scene form records: the one event to dispatch, or null when nothing changes. */

/** One edit of the scene draft; null for an edit the draft refuses, or one that changes nothing. */
export function editSceneEvent(state: AnswerContext, op: SceneEditOp, path: string, value: unknown, via: ChoiceVia) {
  if (state.submitted || state.readOnly || !isSceneDraft(state.answer)) return null;
  const next = applySceneEdit(state.answer, { op, path, value });
  if (next === state.answer || JSON.stringify(next) === JSON.stringify(state.answer)) return null;
  return { type: "scene_edited" as const, payload: { op, path, value: (value ?? null) as SceneEditedPayload["value"], via } };
}
