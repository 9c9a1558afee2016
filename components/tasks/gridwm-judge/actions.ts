"use client";

import { useMemo } from "react";
import type { AnnotationStore } from "@/lib/client/annotation-store";
import { judgeEvent, zoomFrameEvent } from "@/lib/tasks/gridwm-judge/actions";
import type { ChoiceVia } from "@/lib/tasks/shared/gridwm/actions";
import type { Verdict } from "@/lib/tasks/shared/gridwm/common";
import { useAnnotationStoreApi } from "@/components/annotate/annotation-store-provider";

export interface JudgeActions {
  judge(verdict: Verdict, via: ChoiceVia): void;
  /** one frame of the storyboard large */
  zoomFrame(image: string, frame: number, via: "click" | "keyboard"): void;
}

/** Task C's interactions, each dispatched as its event (lib/tasks/gridwm-judge/actions.ts); none when it changes nothing. */
export function judgeActions(store: AnnotationStore): JudgeActions {
  return {
    judge(verdict, via) {
      const state = store.getState();
      const event = judgeEvent(state, verdict, via);
      if (event) state.dispatch(event);
    },
    zoomFrame(image, frame, via) {
      const state = store.getState();
      const event = zoomFrameEvent(state, image, frame, via);
      if (!event) return;
      // replay and review: the frame opens large, nothing is recorded
      if (state.readOnly) state.showState({ zoomed: image, frame });
      else state.dispatch(event);
    },
  };
}

export function useJudgeActions(): JudgeActions {
  const api = useAnnotationStoreApi();
  return useMemo(() => judgeActions(api), [api]);
}
