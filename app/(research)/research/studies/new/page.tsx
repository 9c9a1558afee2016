import type { Metadata } from "next";
import { requirePageRole } from "@/lib/auth/session";
import { PageHeader } from "@/components/ui/page-header";
import { Card, CardBody } from "@/components/ui/card";
import { StudyCreateForm } from "@/components/research/study-create-form";

export const metadata: Metadata = { title: "New study" };

export default async function NewStudyPage() {
  await requirePageRole("/research/studies/new", "ADMIN", "RESEARCHER");
  return (
    <div className="max-w-2xl">
      <PageHeader title="New study" description="A study holds batches of items, the annotators who work on them, and their results." />
      <Card>
        <CardBody>
          <StudyCreateForm />
        </CardBody>
      </Card>
    </div>
  );
}
