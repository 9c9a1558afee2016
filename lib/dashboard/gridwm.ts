// the section's types where components/dashboard/gridwm-section.tsx imports them (issue 19: it moves to components/tasks/)
export type { CountMetric, GridwmFigures, GridwmSection } from "@/lib/tasks/shared/gridwm/dashboard";
