"use client";

import { useMemo } from "react";
import type { AnnotationStore } from "@/lib/client/annotation-store";
import { chooseEvent } from "@/lib/tasks/gridwm-next-obs/actions";
import type { ChoiceVia } from "@/lib/tasks/shared/gridwm/actions";
import type { Letter } from "@/lib/tasks/shared/gridwm/common";
import { useAnnotationStoreApi } from "@/components/annotate/annotation-store-provider";

/** Task A's choice of a letter, dispatched as `choice_made` (lib/tasks/gridwm-next-obs/actions.ts); nothing when it changes nothing. */
export function chooseAction(store: AnnotationStore): (choice: Letter, via: ChoiceVia) => void {
  return (choice, via) => {
    const state = store.getState();
    const event = chooseEvent(state, choice, via);
    if (event) state.dispatch(event);
  };
}

export function useChoose(): (choice: Letter, via: ChoiceVia) => void {
  const api = useAnnotationStoreApi();
  return useMemo(() => chooseAction(api), [api]);
}
