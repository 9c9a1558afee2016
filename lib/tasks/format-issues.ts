import type { z } from "zod";

/**
 * One line per zod issue, each led by its field path ("key.order: order must be a permutation
 * ..."), with `prefix` prepended to every path (e.g. "items.jsonl line 3: ").
 */
export function formatIssues(error: z.ZodError, prefix = ""): string {
  return error.issues
    .map((issue) => {
      const path = issue.path.map(String).join(".");
      return `${prefix}${path === "" ? "" : `${path}: `}${issue.message}`;
    })
    .join("\n");
}
