import type { ComponentType } from "react";
import type { ReplayPanelProps } from "@/components/tasks/shared/types";
import { EsiReplayPanelView } from "@/components/tasks/esi-explore/replay-panel";

/**
 * Task kind -> its panel below the replay player, for the kinds whose replay hook gives one
 * (lib/tasks/<kind>/replay.ts; ESI-Bench's step labels). A registry of its own beside
 * components/tasks/registry.ts because the replay page is a server page and that one is "use client".
 */
export const replayPanels: Readonly<Record<string, ComponentType<ReplayPanelProps>>> = {
  "esi-explore": EsiReplayPanelView,
};
