import { z } from "zod";

/** What an export can hold, its formats and its filter (pure: the Exports page uses the lists). */

export const EXPORT_KINDS = ["items", "responses", "events", "annotators", "predictions"] as const;
export type ExportWhat = (typeof EXPORT_KINDS)[number];

export const EXPORT_FORMATS = ["csv", "jsonl"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const exportParamsSchema = z.object({
  what: z.enum(EXPORT_KINDS, { message: `what to export: one of ${EXPORT_KINDS.join(", ")}` }),
});

export const exportQuerySchema = z.object({
  format: z.enum(EXPORT_FORMATS).default("csv"),
  kind: z
    .string()
    .trim()
    .max(60)
    .optional()
    .transform((v) => (v === "" ? undefined : v)),
  tag: z
    .string()
    .regex(/^[^=]{1,60}=.{0,120}$/, "tag filter is key=value, e.g. steps=3")
    .optional()
    .or(z.literal("").transform(() => undefined)),
  /** recruitment-platform ids in the annotators table: as stored (absent), or as per-study salted hashes */
  externalIds: z.enum(["raw", "pseudonymised"]).optional(),
});
export type ExportQuery = z.infer<typeof exportQuerySchema>;

/** POST /api/studies/<slug>/export-jobs: the table and the same options as the direct export's query. */
export const exportJobBodySchema = exportQuerySchema.extend({
  table: z.enum(EXPORT_KINDS, { message: `table: one of ${EXPORT_KINDS.join(", ")}` }),
});
export type ExportJobBody = z.infer<typeof exportJobBodySchema>;

export interface ExportFilter {
  kind?: string;
  /** key=value */
  tag?: string;
}

/** "<slug>-<what>[-<kind>][-<tag key>-<value>].<format>", safe for Content-Disposition. */
export function exportFileName(slug: string, what: ExportWhat, format: ExportFormat, filter: ExportFilter = {}): string {
  const parts = [slug, what];
  if (filter.kind) parts.push(filter.kind);
  if (filter.tag) parts.push(filter.tag.replace("=", "-"));
  const base = parts.join("-").replace(/[^A-Za-z0-9._-]+/g, "_");
  return `${base}.${format}`;
}

export const EXPORT_CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: "text/csv; charset=utf-8",
  jsonl: "application/x-ndjson; charset=utf-8",
};
