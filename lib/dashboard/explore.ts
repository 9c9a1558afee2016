// the section's types where components/dashboard/explore-section.tsx imports them (issue 19: it moves to components/tasks/)
export type { ExploreScorerTable, ExploreSection } from "@/lib/tasks/shared/explore/dashboard";
