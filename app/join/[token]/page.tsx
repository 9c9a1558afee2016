import type { Metadata } from "next";
import { isAppError } from "@/lib/errors";
import { previewEntry } from "@/lib/studies/entry";
import { JoinFrame, JoinProblem } from "@/components/join/join-frame";
import { JoinSignIn } from "@/components/join/join-sign-in";
import { TeamContact } from "@/components/annotate/team-contact";
import { contactByEntryToken } from "@/lib/studies/contact";

export const metadata: Metadata = { title: "Join a study", robots: { index: false, follow: false } };

/**
 * The public study link: /join/<entryToken>?PROLIFIC_PID=..&STUDY_ID=..&SESSION_ID=.. or ?pid=...
 * The page only checks (nothing is written: a link preview creates no account); the browser then
 * signs in with the same token and query string, which creates or resumes the account.
 */
export default async function JoinPage({
  params,
  searchParams,
}: {
  params: Promise<{ token: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { token } = await params;
  const query = await searchParams;
  // whom a refused participant writes to: the study's contact, when the link names a study
  const contact = await contactByEntryToken(token);
  let preview;
  try {
    preview = await previewEntry(token, query);
  } catch (error) {
    if (!isAppError(error)) throw error;
    const issues = (error.details as { issues?: Array<{ path: string; message: string }> } | undefined)?.issues ?? [];
    const title =
      error.code === "INVALID"
        ? "This study link is not complete"
        : error.code === "NOT_FOUND"
          ? "This study link does not work"
          : "You cannot join this study now";
    return (
      <JoinFrame title={title}>
        <JoinProblem message={error.message} issues={error.code === "INVALID" ? issues : []} contact={contact} />
      </JoinFrame>
    );
  }
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) search.append(key, v);
  const who = preview.params.source === "prolific" ? `Prolific participant ${preview.params.externalId}` : `participant ${preview.params.externalId}`;
  return (
    <JoinFrame title={preview.study.title}>
      <p className="mb-4 text-sm text-slate-600">
        {preview.returning ? "Welcome back" : "Welcome"}, {who}.{" "}
        {preview.returning ? "Your work so far is saved; you continue where you left off." : "No password is needed: this link is your way in, on any device."}
      </p>
      <JoinSignIn
        credentials={{ entryToken: token, query: search.toString() }}
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
