import type { Metadata } from "next";
import { requirePageRole } from "@/lib/auth/session";
import { listStudyChoices } from "@/lib/studies/studies";
import { PageHeader } from "@/components/ui/page-header";
import { EmptyState } from "@/components/ui/empty-state";
import { ButtonLink } from "@/components/ui/button";
import { ImportForm } from "@/components/admin/import-form";

export const metadata: Metadata = { title: "Import a batch" };

export default async function ImportPage({ searchParams }: { searchParams: Promise<{ study?: string }> }) {
  await requirePageRole("/admin/import", "ADMIN");
  const { study } = await searchParams;
  const studies = await listStudyChoices();
  return (
    <div className="max-w-3xl">
      <PageHeader
        title="Import a batch"
        description="A batch is a folder or a .zip holding items.jsonl and the images it references by relative path. ENACT's released QA files are read as they are."
      />
      {studies.length === 0 ? (
        <EmptyState
          title="No study to import into"
          description="Create a study first."
          action={<ButtonLink href="/research/studies/new">New study</ButtonLink>}
        />
      ) : (
        // no study is preselected (importing into the wrong one is easy to miss), unless the page was opened from one
        <ImportForm studies={studies} defaultStudy={study && studies.some((s) => s.slug === study) ? study : null} />
      )}
    </div>
  );
}
