import type { Metadata } from "next";
import { requirePageRole } from "@/lib/auth/session";
import { PageHeader } from "@/components/ui/page-header";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { StudyCreateForm } from "@/components/research/study-create-form";
import { PlanCalculator } from "@/components/dashboard/plan-calculator";

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
      <Card className="mt-6">
        <CardHeader
          title="Plan"
          description="People the study needs, before any answers: the plain arithmetic, and the half-width from assumed variance components you can edit."
        />
        <CardBody>
          <PlanCalculator
            kinds={[{ kind: "study", title: "Your study", metricLabel: "a 0/1 figure such as accuracy", items: 100, components: null, unitScale: true }]}
            k={3}
            itemsPerPerson={50}
            editable
          />
        </CardBody>
      </Card>
    </div>
  );
}
