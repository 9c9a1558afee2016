import { z } from "zod";
import type { ImportJobView } from "@/lib/import/jobs";
import type { ExportJobView } from "@/lib/exports/job-view";
import type { ApiTokenSummary } from "@/lib/auth/api-tokens";
import type { StudyProgress } from "@/lib/dashboard/progress";
import type { ImportModelRunResult } from "@/lib/models/runs";
import type { ModelRunSummary } from "@/lib/models/types";
import type { listStudiesWithCounts } from "@/lib/studies/studies";

/**
 * What the main staff routes answer, for their OpenAPI document (`route({ response })`,
 * lib/http/openapi.ts; docs/api.md) and so for a generated client. Each schema is
 * checked against the TypeScript type the route answers with (the `Same` lines below), so the
 * two cannot drift apart. Job states are enums: a poller waits for one of them.
 */

/** An import job's states: RUNNING until it ends SUCCEEDED or FAILED (never "COMPLETED"). */
export const IMPORT_JOB_STATES = ["RUNNING", "SUCCEEDED", "FAILED"] as const;
/** An export job's states; EXPIRED: it succeeded and its file was removed after the retention. */
export const EXPORT_JOB_STATES = ["QUEUED", "RUNNING", "SUCCEEDED", "FAILED", "EXPIRED"] as const;

export const importJobSchema = z.object({
  id: z.string(),
  studySlug: z.string(),
  fileName: z.string(),
  status: z.enum(IMPORT_JOB_STATES).describe("RUNNING until the job ends: SUCCEEDED or FAILED"),
  phase: z.string().describe('what it is doing ("reading", "storing", ...; "done" at the end)'),
  done: z.number().int(),
  total: z.number().int(),
  outcome: z
    .union([
      z.object({
        ok: z.literal(true),
        httpStatus: z.number().int(),
        result: z.unknown().describe("what a direct import answers (the batch, items and assets counted)"),
      }),
      z.object({
        ok: z.literal(false),
        httpStatus: z.number().int(),
        error: z.string(),
        code: z.string().optional(),
        details: z.unknown().optional(),
        retryAfter: z.string().optional(),
      }),
    ])
    .nullable()
    .describe("null while RUNNING"),
  createdAt: z.string().describe("ISO 8601"),
});

/** GET /api/admin/import/jobs/<id>; POST /api/admin/import with background=1 (202). */
export const importJobReplySchema = z.object({ job: importJobSchema });

/** POST /api/admin/import: 202 `{ job }` with background=1; else, once it ended, 201 (a new batch) or 200 (unchanged) with the import's result. */
export const importStartReplySchema = z.union([
  importJobReplySchema,
  z.record(z.string(), z.unknown()).describe("without background=1: the import's result (the batch, items and assets counted)"),
]);

export const exportJobSchema = z.object({
  id: z.string(),
  table: z.string(),
  format: z.string(),
  kind: z.string().nullable(),
  tag: z.string().nullable(),
  externalIds: z.enum(["raw", "pseudonymised"]),
  status: z.enum(EXPORT_JOB_STATES),
  totalRows: z.number().int(),
  rows: z.number().int(),
  progress: z.number().nullable().describe("rows / totalRows, 0-1; null before the job counted"),
  bytes: z.number(),
  sha256: z.string().nullable(),
  fileName: z.string(),
  error: z.string().nullable(),
  attempts: z.number().int(),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
  downloadUrl: z.string().nullable().describe("where to download the file while it is there"),
});

export const exportJobReplySchema = z.object({ job: exportJobSchema });
export const exportJobListReplySchema = z.object({ jobs: z.array(exportJobSchema) });

/** GET /api/studies: the studies not archived, newest first, with their counts. */
export const studyListReplySchema = z.object({
  studies: z.array(
    z.object({
      id: z.string(),
      slug: z.string(),
      title: z.string(),
      status: z.enum(["DRAFT", "OPEN", "PAUSED", "CLOSED"]),
      overlap: z.number().int(),
      version: z.number().int(),
      createdAt: z.string().describe("ISO 8601"),
      archivedAt: z.string().nullable(),
      _count: z.object({ items: z.number().int(), batches: z.number().int(), members: z.number().int() }),
      responses: z.number().int().describe("submitted assignments"),
    }),
  ),
});

/** POST /api/studies (201). */
export const studyCreatedReplySchema = z.object({ id: z.string(), slug: z.string() });

/** POST /api/studies/<slug>/versions (201). */
export const studyVersionReplySchema = z.object({ id: z.string(), slug: z.string(), version: z.number().int() });

export const apiTokenSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  scopes: z.array(z.enum(["read", "manage", "play"])),
  createdAt: z.string(),
  expiresAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});
export const tokenListReplySchema = z.object({ tokens: z.array(apiTokenSummarySchema) });
/** POST /api/tokens (201): the token's text, shown this once. */
export const tokenCreatedReplySchema = z.object({ token: z.string().describe("the token (ys_...): shown only now"), summary: apiTokenSummarySchema });

/** GET /api/studies/<slug>/model-runs. */
export const modelRunListReplySchema = z.object({
  runs: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      createdAt: z.string().describe("ISO 8601"),
      predictions: z.number().int(),
      unparsed: z.number().int().describe("outputs the benchmark's parser read no answer from, scored wrong"),
      importedBy: z.string().nullable(),
    }),
  ),
});
/** POST /api/studies/<slug>/model-runs (201). */
export const modelRunImportedReplySchema = z.object({
  runId: z.string(),
  format: z.string().describe('the file\'s format: "native" (answers.jsonl) or the benchmark output format read (e.g. "egoschema", "openeqa-results")'),
  scored: z.number().int(),
  unparsed: z.number().int().describe("outputs the benchmark's parser read no answer from, scored wrong"),
  replaced: z.boolean().describe("a run of that name was replaced"),
  message: z.string(),
});

const annotatorProgressSchema = z.object({
  userId: z.string(),
  name: z.string(),
  member: z.boolean(),
  mainAssigned: z.number().int(),
  mainDone: z.number().int(),
  agreementAssigned: z.number().int(),
  agreementDone: z.number().int(),
  practiceDone: z.number().int(),
  lastResponseAt: z.number().nullable().describe("epoch ms of the last non-practice response"),
  activeNow: z.boolean(),
});

/** GET /api/studies/<slug>/progress: the dashboard's `progress`, alone (lib/dashboard/progress.ts). */
export const studyProgressSchema = z.object({
  overlap: z.number().int().describe("k: people per item"),
  items: z.number().int().describe("ordinary items (neither practice nor gold)"),
  gold: z.number().int().describe("gold (check) items, not in items, expected or done"),
  conditions: z.number().int().describe("the study's conditions, 1 without any"),
  expected: z.number().int().describe("items x conditions x k"),
  done: z.number().int().describe("responses to MAIN assignments of ordinary items"),
  itemsComplete: z.number().int().describe("ordinary items with at least k MAIN responses in every condition"),
  agreementAssigned: z.number().int(),
  agreementDone: z.number().int(),
  perAnnotator: z.array(annotatorProgressSchema),
  perDay: z.array(z.object({ day: z.string().describe("a UTC day, YYYY-MM-DD"), responses: z.number().int() })),
  activeNow: z.number().int(),
  activeWindowMinutes: z.number(),
});

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const checks: [
  Same<z.output<typeof importJobSchema>["status"], ImportJobView["status"]>,
  Same<Omit<z.output<typeof importJobSchema>, "outcome">, Omit<ImportJobView, "outcome">>,
  Same<z.output<typeof exportJobSchema>["status"], ExportJobView["status"]>,
  Same<keyof z.output<typeof exportJobSchema>, keyof ExportJobView>,
  Same<z.output<typeof apiTokenSummarySchema>, ApiTokenSummary>,
  Same<z.output<typeof studyProgressSchema>, StudyProgress>,
  Same<z.output<typeof modelRunImportedReplySchema>, ImportModelRunResult>,
  Same<keyof z.output<typeof modelRunListReplySchema>["runs"][number], keyof ModelRunSummary>,
  Same<keyof z.output<typeof studyListReplySchema>["studies"][number], keyof Awaited<ReturnType<typeof listStudiesWithCounts>>[number]>,
  Same<z.output<typeof studyListReplySchema>["studies"][number]["status"], Awaited<ReturnType<typeof listStudiesWithCounts>>[number]["status"]>,
] = [true, true, true, true, true, true, true, true, true, true];
void checks;
