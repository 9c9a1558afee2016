import "server-only";
import type { ExportFilter, ExportWhat } from "@/lib/exports/filter";
import { countExportRows } from "@/lib/repos/exports";

/** Rows each export would hold (SQL counts, lib/repos/exports.ts), for the Exports page. */
export async function exportTableCounts(studyId: string, filter: ExportFilter): Promise<Record<ExportWhat, number>> {
  return countExportRows(studyId, filter);
}
