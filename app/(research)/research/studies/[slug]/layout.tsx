import Link from "next/link";
import { notFound } from "next/navigation";
import { getStudyHeader } from "@/lib/studies/studies";
import { StudyTabs } from "@/components/research/study-tabs";
import { Badge } from "@/components/ui/badge";

const studyTabs = [
  { title: "Overview", path: "" },
  { title: "Dashboard", path: "/dashboard" },
  { title: "Annotators", path: "/annotators" },
  { title: "Participants", path: "/participants" },
  { title: "Agents", path: "/agents" },
  { title: "Exports", path: "/exports" },
  { title: "Report", path: "/report" },
  { title: "Settings", path: "/settings" },
  { title: "Audit log", path: "/audit" },
];

const statusTone = { DRAFT: "violet", OPEN: "green", PAUSED: "amber", CLOSED: "slate" } as const;

export default async function StudyLayout({ children, params }: { children: React.ReactNode; params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const study = await getStudyHeader(slug);
  if (!study) notFound();
  return (
    <div>
      <div className="mb-4">
        <Link href="/research" className="text-sm text-slate-500 hover:text-slate-800">
          ← Studies
        </Link>
        <div className="mt-1 flex flex-wrap items-center gap-3">
          <h1 className="text-2xl font-semibold tracking-tight">{study.title}</h1>
          <Badge tone={statusTone[study.status]}>{study.status.toLowerCase()}</Badge>
          {study.version > 1 ? <Badge tone="blue">version {study.version}</Badge> : null}
          {study.archivedAt ? <Badge tone="slate">archived</Badge> : null}
          <span className="font-mono text-xs text-slate-500">{study.slug}</span>
        </div>
      </div>
      <StudyTabs slug={slug} tabs={studyTabs} />
      {children}
    </div>
  );
}
