import type { FieldValues, Path, UseFormSetError } from "react-hook-form";
import type { ApiFailure, ApiIssue } from "@/lib/client/api";

/**
 * A refused call's issues put on the react-hook-form fields they name ("axes.1.key" is
 * react-hook-form's own path syntax); an issue without a path, or an answer without issues, goes
 * to the form's root with the server's message or `fallback`. Returns the issues shown.
 */
export function showServerIssues<T extends FieldValues>(
  setError: UseFormSetError<T>,
  failure: ApiFailure,
  fallback: string,
  issues: readonly ApiIssue[] | undefined = failure.issues,
): number {
  if (!issues || issues.length === 0) {
    setError("root", { message: failure.error ?? fallback });
    return 0;
  }
  for (const issue of issues) {
    if (issue.path) setError(issue.path as Path<T>, { message: issue.message });
    else setError("root", { message: issue.message });
  }
  return issues.length;
}
