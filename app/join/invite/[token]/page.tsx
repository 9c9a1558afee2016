import type { Metadata } from "next";
import { isAppError } from "@/lib/errors";
import { previewInvite } from "@/lib/studies/entry";
import { JoinFrame, JoinProblem } from "@/components/join/join-frame";
import { JoinSignIn } from "@/components/join/join-sign-in";
import { TeamContact } from "@/components/annotate/team-contact";
import { contactByInvite } from "@/lib/studies/contact";

export const metadata: Metadata = { title: "Your invitation", robots: { index: false, follow: false } };

/** An invite link for a named annotator: checks it, then signs them in ("study-link" credentials). */
export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const contact = await contactByInvite(token);
  let preview;
  try {
    preview = await previewInvite(token);
  } catch (error) {
    if (!isAppError(error)) throw error;
    return (
      <JoinFrame title={error.code === "NOT_FOUND" ? "This invite link does not work" : "You cannot join this study now"}>
        <JoinProblem message={error.message} issues={[]} contact={contact} />
      </JoinFrame>
    );
  }
  return (
    <JoinFrame title={preview.study.title}>
      <p className="mb-4 text-sm text-slate-600">Hello {preview.name}, you are invited to take part. This link is personal: please do not share it.</p>
      <JoinSignIn
        credentials={{ invite: token }}
        next={`/s/${preview.study.slug}`}
        help={
          <>
            If this keeps failing, please <TeamContact contact={contact} studyTitle={preview.study.title} />.
          </>
        }
      />
    </JoinFrame>
  );
}
