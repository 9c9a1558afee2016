import type { Metadata } from "next";
import Link from "next/link";
import { requirePageRole } from "@/lib/auth/session";
import { orPageError } from "@/lib/annotate/page-access";
import { studyReport } from "@/lib/report/facts";
import { renderMarkdown } from "@/lib/report/render";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { ReportActions } from "@/components/research/report-actions";
import { ReportSections } from "@/components/research/report-sections";

export const metadata: Metadata = { title: "Report" };

export default async function StudyReportPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  await requirePageRole(`/research/studies/${slug}/report`, "ADMIN", "RESEARCHER");
  const report = await orPageError(studyReport(slug));
  const unreported = report.entries.filter((entry) => !entry.reported).length;
  return (
    <div className="space-y-6">
      <Card>
        <CardHeader
          title="Human-baseline report"
          description="The reporting checklist of Wei et al. (ICML 2025), filled from this study's records, for a paper's appendix."
          actions={<ReportActions slug={slug} markdown={renderMarkdown(report)} />}
        />
        <CardBody className="text-sm text-slate-600">
          <p>
            {report.entries.length - unreported} of {report.entries.length} entries filled; {unreported} say why they are not. Entries only you can answer
            (ethics review, pre-registration, population, pay, …) are asked once in{" "}
            <Link className="text-brand-700 hover:underline" href={`/research/studies/${slug}/settings`}>
              Settings → Reporting
            </Link>
            .
          </p>
        </CardBody>
      </Card>
      <ReportSections report={report} />
    </div>
  );
}
