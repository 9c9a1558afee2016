// the figures' types where components/dashboard/ego2world-section.tsx imports them (issue 19: it moves to components/tasks/)
export type { EgoMetric, EgoRow } from "@/lib/tasks/ego2world-play/dashboard-figures";
