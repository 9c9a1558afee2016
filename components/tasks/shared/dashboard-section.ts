import type { ReactNode } from "react";

/**
 * A kind's section of the study dashboard (components/tasks/<kind>/dashboard-section.tsx), listed
 * in components/tasks/dashboard-sections.ts: its anchor, card header and body for the kind's
 * figures (lib/dashboard).
 */
export interface KindDashboardSection<Section> {
  /** the section's anchor on the page */
  id: string;
  title(section: Section): string;
  description: string;
  render(section: Section, slug: string): ReactNode;
}
