import type { Metadata } from "next";
import { TeamContact } from "@/components/annotate/team-contact";
import { JoinFrame } from "@/components/join/join-frame";
import { contactBySlug } from "@/lib/studies/contact";

export const metadata: Metadata = { title: "Withdrawn" };

/** Where a participant lands after withdrawing (signed out): whom to write to about the study, when it names someone. */
export default async function WithdrawnPage({ searchParams }: { searchParams: Promise<{ study?: string | string[] }> }) {
  const { study: slug } = await searchParams;
  const study = typeof slug === "string" ? await contactBySlug(slug) : null;
  return (
    <JoinFrame title="You have withdrawn">
      <p className="text-sm text-slate-600" data-testid="withdrawn">
        Your answers in the study were deleted, and you are signed out. Thank you for your time. If you came from a recruitment platform such as Prolific, you
        can close this page and return the study there.
      </p>
      {study ? (
        <p className="mt-3 text-sm text-slate-600" data-testid="study-contact">
          Questions about this study or your data? Please <TeamContact contact={study.contact} studyTitle={study.studyTitle} />.
        </p>
      ) : null}
    </JoinFrame>
  );
}
