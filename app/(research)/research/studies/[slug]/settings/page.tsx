import type { Metadata } from "next";
import Link from "next/link";
import { requirePageRole } from "@/lib/auth/session";
import { orPageError } from "@/lib/annotate/page-access";
import { getStudySettings } from "@/lib/studies/settings";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { StudySettingsForm } from "@/components/research/study-settings-form";
import { NewVersionButton, StudyLifecycle } from "@/components/research/study-lifecycle";
import { StudyAnalysisForm } from "@/components/research/study-analysis-form";
import { StudyContactForm } from "@/components/research/study-contact-form";
import { StudyReportingForm } from "@/components/research/study-reporting-form";
import { getReportingAnswers } from "@/lib/report/answers";
import { count } from "@/components/dashboard/format";
import { StudyArchiveDelete } from "@/components/research/study-archive-delete";
import { getStudyBySlug } from "@/lib/studies/studies";

export const metadata: Metadata = { title: "Settings" };

export default async function StudySettingsPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const user = await requirePageRole(`/research/studies/${slug}/settings`, "ADMIN", "RESEARCHER");
  const view = await orPageError(getStudySettings(slug));
  const study = await getStudyBySlug(slug);
  const reporting = await getReportingAnswers(slug);
  // archiving and deleting belong to the study's owner and to admins (lib/studies/archive.ts)
  const mayEnd = user.role === "ADMIN" || study.createdById === user.id;
  return (
    <div className="space-y-6">
      <div className="grid gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader title="Status" />
          <CardBody>
            <StudyLifecycle slug={slug} status={view.status} />
          </CardBody>
        </Card>
        <Card>
          <CardHeader title={`Version ${view.version}`} />
          <CardBody className="space-y-3 text-sm text-slate-600">
            <p>
              {view.frozen ? (
                <>
                  <strong className="text-slate-900">Frozen.</strong> The study has {count(view.responses)} response{view.responses === 1 ? "" : "s"}, so its
                  items and settings stay as they are (answers must stay comparable). To change them, copy the study into a new version: same settings, batches,
                  items and images, as a draft without participants.
                </>
              ) : (
                <>Items and settings can change until the first response arrives; then they are frozen, and changes need a new version of the study.</>
              )}
            </p>
            <p>
              {view.items.total} items ({view.items.practice} practice, {view.items.gold} gold).
              {view.previousVersion ? (
                <>
                  {" "}
                  Copied from{" "}
                  <Link className="text-brand-700 hover:underline" href={`/research/studies/${view.previousVersion.slug}/settings`}>
                    version {view.previousVersion.version}
                  </Link>
                  .
                </>
              ) : null}
              {view.nextVersions.length > 0 ? (
                <>
                  {" "}
                  Later versions:{" "}
                  {view.nextVersions.map((v, i) => (
                    <span key={v.slug}>
                      {i > 0 ? ", " : ""}
                      <Link className="text-brand-700 hover:underline" href={`/research/studies/${v.slug}/settings`}>
                        version {v.version}
                      </Link>
                    </span>
                  ))}
                  .
                </>
              ) : null}
            </p>
            <NewVersionButton slug={slug} primary={view.frozen} />
          </CardBody>
        </Card>
      </div>
      <div className="grid gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader title="Analysis" description="How the dashboard states its uncertainty." />
          <CardBody>
            <StudyAnalysisForm slug={slug} generaliseOver={view.analysis.generaliseOver} />
          </CardBody>
        </Card>
        <Card>
          <CardHeader title="Contact for participants" description="Whom participants write to with questions or problems." />
          <CardBody>
            <StudyContactForm slug={slug} initial={view.contact} />
          </CardBody>
        </Card>
      </div>
      <Card>
        <CardHeader
          title="Reporting"
          description="What only you can answer for the human-baseline report (the Report tab): asked once, carried into the report. Changeable at any time."
        />
        <CardBody>
          <StudyReportingForm slug={slug} initial={reporting} />
        </CardBody>
      </Card>
      {view.frozen ? (
        <p role="note" className="rounded-md border border-amber-200 bg-amber-50 px-4 py-2 text-sm text-amber-900" data-testid="frozen-note">
          These settings are read-only: the study has responses. Use <strong>Create a new version</strong> above to change them.
        </p>
      ) : null}
      <StudySettingsForm
        slug={slug}
        initial={view.settings}
        frozen={view.frozen}
        kinds={view.kinds}
        tagKeys={view.tagKeys}
        consentVersion={view.consentVersion}
      />
      {mayEnd ? (
        <Card>
          <CardHeader title="Archive or delete" />
          <CardBody>
            <StudyArchiveDelete slug={slug} archived={study.archivedAt !== null} counts={{ items: view.items.total, responses: view.responses }} />
          </CardBody>
        </Card>
      ) : null}
    </div>
  );
}
