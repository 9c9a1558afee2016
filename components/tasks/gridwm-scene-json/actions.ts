"use client";

import { useMemo } from "react";
import type { AnnotationStore } from "@/lib/client/annotation-store";
import { editSceneEvent } from "@/lib/tasks/gridwm-scene-json/actions";
import type { ChoiceVia } from "@/lib/tasks/shared/gridwm/actions";
import type { SceneEditOp } from "@/lib/tasks/shared/gridwm/scene-form";
import { useAnnotationStoreApi } from "@/components/annotate/annotation-store-provider";

type EditScene = (op: SceneEditOp, path: string, value: unknown, via: ChoiceVia) => void;

/** Task B's edits of the scene draft, dispatched as `scene_edited` (lib/tasks/gridwm-scene-json/actions.ts); nothing for one that changes nothing. */
export function editSceneAction(store: AnnotationStore): EditScene {
  return (op, path, value, via) => {
    const state = store.getState();
    const event = editSceneEvent(state, op, path, value, via);
    if (event) state.dispatch(event);
  };
}

export function useEditScene(): EditScene {
  const api = useAnnotationStoreApi();
  return useMemo(() => editSceneAction(api), [api]);
}
