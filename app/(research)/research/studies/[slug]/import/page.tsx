import type { Metadata } from "next";
import { forbidden } from "next/navigation";
import { requirePageRole } from "@/lib/auth/session";
import { getStudyBySlug } from "@/lib/studies/studies";
import { mayManageStudy } from "@/lib/studies/managers";
import { PageHeader } from "@/components/ui/page-header";
import { ImportForm } from "@/components/admin/import-form";

export const metadata: Metadata = { title: "Import a batch" };

/** The study owner's import page (admins have /admin/import for every study): the same form, into this study only. */
export default async function StudyImportPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const user = await requirePageRole(`/research/studies/${slug}/import`, "ADMIN", "RESEARCHER");
  if (!(await mayManageStudy(slug, user))) forbidden();
  const study = await getStudyBySlug(slug);
  return (
    <div className="max-w-3xl">
      <PageHeader
        title="Import a batch"
        description="A batch is a folder or a .zip holding items.jsonl and the images it references by relative path, or a benchmark's release as it is. As the study's owner you import into this study."
      />
      <ImportForm studies={[{ slug: study.slug, title: study.title, version: study.version }]} defaultStudy={study.slug} />
    </div>
  );
}
