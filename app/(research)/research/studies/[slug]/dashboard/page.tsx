import type { Metadata } from "next";
import { requirePageRole } from "@/lib/auth/session";
import { choiceDefaults, visitStudyDashboard, type PendingDashboard } from "@/lib/dashboard/study-dashboard";
import { EmptyState } from "@/components/ui/empty-state";
import { DashboardControls } from "@/components/dashboard/dashboard-controls";
import { IntervalsStatus } from "@/components/dashboard/intervals-status";
import { PendingFigures } from "@/components/dashboard/pending-figures";
import { ComparisonHeadline, MethodLine } from "@/components/dashboard/comparison-section";
import { count } from "@/components/dashboard/format";
import { PlanPanel } from "@/components/dashboard/plan-panel";
import {
  AccuracyCard,
  AgreementCard,
  AgreementPlanCard,
  ConfidenceCard,
  DashboardNote,
  dashboardControls,
  KindSections,
  ModelsCard,
  ProgressSection,
  ProgressStats,
  TimeCard,
  type SectionProps,
} from "@/components/dashboard/page-sections";

export const metadata: Metadata = { title: "Dashboard" };

const sections = [
  ["progress", "Progress"],
  ["accuracy", "Accuracy"],
  ["agreement", "Agreement"],
  ["agreement-plan", "Agreement plan"],
  ["confidence", "Confidence"],
  ["time", "Time"],
  ["models", "Models"],
] as const;

/** A large study's view not computed yet (visitStudyDashboard): the live progress, and a note that polls. */
function PendingView({ view }: { view: PendingDashboard }) {
  const { progress } = view;
  return (
    <div className="space-y-6">
      <PendingFigures answers={count(view.answers)} />
      <section id="progress" className="space-y-4">
        <h2 className="text-lg font-semibold">Progress</h2>
        <ProgressStats progress={progress} />
      </section>
    </div>
  );
}

export default async function DashboardPage({
  params,
  searchParams,
}: {
  params: Promise<{ slug: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { slug } = await params;
  await requirePageRole(`/research/studies/${slug}/dashboard`, "ADMIN", "RESEARCHER");
  const d = await visitStudyDashboard(slug, await searchParams);
  if ("pending" in d) return <PendingView view={d} />;
  const { choices, progress, annotators } = d;
  if (d.accuracy.responses === 0 && progress.items === 0) {
    return <EmptyState title="Nothing to show yet" description="Import items and let annotators work: the dashboard fills in as answers arrive." />;
  }
  const defaults = choiceDefaults(choices);
  const section: SectionProps = {
    d,
    slug,
    names: annotators.map((a) => a.name),
    tagTitle: choices.tagKey ?? "tag",
    scopeName: choices.annotator === null ? "all annotators (pooled)" : annotators[choices.annotator].name,
  };
  // the comparison.csv of this view: its slicing and plan choice (people are always pooled there)
  const comparisonParams = new URLSearchParams({
    ...(choices.tagKey && choices.tagKey !== defaults.tag ? { tag: choices.tagKey } : {}),
    ...(choices.includePlanAnswers ? { plan: "with" } : {}),
    ...(choices.includeExcluded ? { reviewed: "with" } : {}),
    ...(choices.includeExcludedParticipants ? { participants: "with" } : {}),
  }).toString();

  return (
    <div className="space-y-6">
      <div className="space-y-3">
        <DashboardControls controls={dashboardControls(d, defaults)} />
        <DashboardNote d={d} />
        <ComparisonHeadline comparison={d.comparison} kinds={d.kinds} />
        <MethodLine method={d.method} />
        <IntervalsStatus intervals={d.intervals} answers={count(d.asOf.responses)} />
      </div>
      <nav
        aria-label="Dashboard sections"
        className="sticky top-14 z-20 -mx-1 flex flex-wrap gap-x-5 gap-y-1 border-b border-slate-200 bg-slate-50/95 px-1 py-2 text-sm backdrop-blur"
      >
        {sections.map(([id, title]) => (
          <a key={id} href={`#${id}`} className="font-medium text-brand-700 hover:underline">
            {title}
          </a>
        ))}
      </nav>
      <ProgressSection {...section} />
      <AccuracyCard {...section} />
      <KindSections {...section} />
      <AgreementCard {...section} />
      <AgreementPlanCard {...section} />
      <ConfidenceCard {...section} />
      <TimeCard {...section} />
      <ModelsCard {...section} comparisonSearch={comparisonParams ? `?${comparisonParams}` : ""} />
      <PlanPanel slug={slug} />
    </div>
  );
}
