import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { requirePageRole } from "@/lib/auth/session";
import { orPageError } from "@/lib/annotate/page-access";
import { countParticipantResponses, getParticipation } from "@/lib/participants/participants";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { WithdrawForm } from "@/components/annotate/withdraw-form";
import { getMemberStudy } from "@/lib/annotate/studies";
import { StudyContactLine } from "@/components/annotate/team-contact";
import { contactOf } from "@/lib/studies/contact";

export const metadata: Metadata = { title: "Withdraw" };

export default async function WithdrawPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const user = await requirePageRole(`/s/${slug}/withdraw`);
  const [p, study] = await Promise.all([orPageError(getParticipation(slug, user.id)), orPageError(getMemberStudy(slug, user.id))]);
  if (p.withdrawn) redirect(`/s/${slug}/ended`);
  const answers = await countParticipantResponses(p.studyId, user.id);
  return (
    <div className="mx-auto max-w-2xl py-6">
      <Link href={`/s/${slug}`} className="text-sm text-slate-500 hover:text-slate-800">
        ← {p.title}
      </Link>
      <Card className="mt-3">
        <CardHeader title="Withdraw from this study" description="You can stop taking part at any time, without giving a reason." />
        <CardBody className="space-y-4 text-sm text-slate-700">
          <p>
            Withdrawing deletes your answers in this study ({answers} so far) and everything recorded while you worked on them (clicks, times). The research
            team sees only that someone withdrew, in its log of actions. You are then signed out, and this study&apos;s link will not let you in again.
          </p>
          <p>If you only want a break, you do not need to withdraw: your work is saved, and you can continue later.</p>
          <WithdrawForm slug={slug} userId={user.id} />
        </CardBody>
      </Card>
      <StudyContactLine contact={contactOf(study)} studyTitle={study.title} />
    </div>
  );
}
