import type { Shortcut } from "@/components/tasks/shared/types";

export const shortcuts: Shortcut[] = [
  { keys: "S / F", action: "verdict Success / Fail" },
  { keys: "← →", action: "previous / next frame while one is open large" },
];
