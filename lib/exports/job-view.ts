import type { ExportFormat, ExportWhat } from "@/lib/exports/filter";

/** An export prepared in the background as the API and the Exports tab show it (pure: lib/exports/export-jobs.ts makes it). */

/** QUEUED, RUNNING, SUCCEEDED, FAILED as the row says; EXPIRED: it succeeded and its file was removed after the retention */
export type ExportJobStatus = "QUEUED" | "RUNNING" | "SUCCEEDED" | "FAILED" | "EXPIRED";

export interface ExportJobView {
  id: string;
  table: ExportWhat;
  format: ExportFormat;
  kind: string | null;
  tag: string | null;
  externalIds: "raw" | "pseudonymised";
  status: ExportJobStatus;
  /** rows the table held when the job started, and rows written so far */
  totalRows: number;
  rows: number;
  /** rows / totalRows, 0-1; null before the job counted */
  progress: number | null;
  /** bytes written so far; the file's size once it succeeded */
  bytes: number;
  sha256: string | null;
  fileName: string;
  error: string | null;
  attempts: number;
  /** the name of who asked */
  createdBy: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  /** when the file goes (SUCCEEDED) or went (EXPIRED) */
  expiresAt: string | null;
  /** where to download the file, while it is there */
  downloadUrl: string | null;
}
