import { TeamContact } from "@/components/annotate/team-contact";
import type { StudyContact } from "@/lib/studies/contact-text";

/** The frame of the public link pages (before sign-in): the name, one card, a line for help. */
export function JoinFrame({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <main className="flex min-h-screen items-center justify-center bg-slate-50 px-4 py-10">
      <div className="w-full max-w-lg">
        <div className="mb-6 flex items-center gap-2">
          <span aria-hidden className="grid h-9 w-9 place-items-center rounded-lg bg-brand-600 text-lg font-bold text-white">
            Y
          </span>
          <div className="text-lg font-semibold tracking-tight">Yardstick</div>
        </div>
        <div className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
          <h1 className="mb-3 text-xl font-semibold tracking-tight">{title}</h1>
          {children}
        </div>
      </div>
    </main>
  );
}

/**
 * A refusal of a link, with the fields at fault when there are any, and whom to write to: the
 * study's contact when the link names a study that has one (null: the platform's messages).
 */
export function JoinProblem({
  message,
  issues,
  contact = null,
}: {
  message: string;
  issues: Array<{ path: string; message: string }>;
  contact?: StudyContact | null;
}) {
  return (
    <div className="space-y-3 text-sm text-slate-700" role="alert" data-testid="join-problem">
      {issues.length > 0 ? (
        <>
          <p>Some of the participant details in this link are missing or not valid:</p>
          <ul className="list-disc space-y-1 pl-5">
            {issues.map((issue) => (
              <li key={`${issue.path}:${issue.message}`}>
                <code className="rounded bg-slate-100 px-1 text-xs font-semibold">{issue.path}</code> {issue.message}
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p>{message}</p>
      )}
      <p className="text-xs text-slate-500">
        If you came from a recruitment platform such as Prolific, go back to it and open the study from there again. If that does not help, please{" "}
        <TeamContact contact={contact} />.
      </p>
    </div>
  );
}
