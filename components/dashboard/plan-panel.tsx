import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { PlanCalculator } from "@/components/dashboard/plan-calculator";
import { planForStudy } from "@/lib/plan/plan-for-study";

/** The study dashboard's Plan section: the planner on the answers so far (planForStudy). */
export async function PlanPanel({ slug }: { slug: string }) {
  const data = await planForStudy(slug);
  if (!data) return null;
  return (
    <section id="plan" className="space-y-4">
      <Card>
        <CardHeader title="Plan" description="How many people the figures need, from the variance components of the answers so far." />
        <CardBody>
          <PlanCalculator kinds={data.kinds} estimator={data.estimator} k={data.k} itemsPerPerson={data.itemsPerPerson} />
        </CardBody>
      </Card>
    </section>
  );
}
