import type { ReactNode } from "react";
import type { StudyDashboard } from "@/lib/dashboard/study-dashboard";
import type { KindDashboardSection } from "@/components/tasks/shared/dashboard-section";
import { gridwmDashboardSection } from "@/components/tasks/shared/gridwm/dashboard-section";
import { exploreDashboardSection } from "@/components/tasks/explore-scene/dashboard-section";
import { ego2worldDashboardSection } from "@/components/tasks/ego2world-play/dashboard-section";
import { esiDashboardSection } from "@/components/tasks/esi-explore/dashboard-section";
import { ratingDashboardSection } from "@/components/tasks/rating/dashboard-section";
import { pairwiseDashboardSection } from "@/components/tasks/pairwise/dashboard-section";
import type { GridwmSection } from "@/lib/tasks/shared/gridwm/dashboard";
import type { ExploreSection } from "@/lib/tasks/shared/explore/dashboard";
import type { Ego2worldSection } from "@/lib/tasks/ego2world-play/dashboard";
import type { EsiSection } from "@/lib/tasks/esi-explore/figures";
import type { RatingSection } from "@/lib/tasks/rating/dashboard";
import type { PairwiseSection } from "@/lib/tasks/pairwise/dashboard";
import { choiceDashboardSection } from "@/components/tasks/choice/dashboard-section";
import { numericDashboardSection } from "@/components/tasks/numeric/dashboard-section";
import type { ChoiceSection } from "@/lib/tasks/choice/dashboard";
import type { NumericSection } from "@/lib/tasks/numeric/dashboard";
import { freeTextDashboardSection } from "@/components/tasks/free-text/dashboard-section";
import type { FreeTextSection } from "@/lib/tasks/free-text/dashboard";
import { enactDashboardSection } from "@/components/tasks/shared/enact-dashboard-section";
import type { EnactSection } from "@/lib/tasks/shared/enact/dashboard";

/**
 * The kinds' sections of the study dashboard, in page order, each with where its figures are in
 * the dashboard (null: the study has none of the kind). A registry of its own beside
 * components/tasks/registry.ts because the dashboard is a server page and that one is "use client".
 */
export interface DashboardSectionEntry {
  id: string;
  view(dashboard: StudyDashboard, slug: string): { title: string; description: string; body: ReactNode } | null;
}

/** `key`: the section's name in StudyDashboard.sections (its KindDashboard.section, lib/tasks/<kind>/dashboard.ts). */
function entry<Section>(section: KindDashboardSection<Section>, key: string): DashboardSectionEntry {
  return {
    id: section.id,
    view(dashboard, slug) {
      const figures = (dashboard.sections[key] ?? null) as Section | null;
      return figures === null ? null : { title: section.title(figures), description: section.description, body: section.render(figures, slug) };
    },
  };
}

export const dashboardSections: readonly DashboardSectionEntry[] = [
  entry<EnactSection>(enactDashboardSection, "enact"),
  entry<GridwmSection>(gridwmDashboardSection, "gridwm"),
  entry<ExploreSection>(exploreDashboardSection, "explore"),
  entry<Ego2worldSection>(ego2worldDashboardSection, "ego2world"),
  entry<EsiSection>(esiDashboardSection, "esi"),
  entry<RatingSection>(ratingDashboardSection, "rating"),
  entry<PairwiseSection>(pairwiseDashboardSection, "pairwise"),
  entry<ChoiceSection>(choiceDashboardSection, "choice"),
  entry<NumericSection>(numericDashboardSection, "numeric"),
  entry<FreeTextSection>(freeTextDashboardSection, "freeText"),
];
