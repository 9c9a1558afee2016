import "server-only";
import type PgBoss from "pg-boss";
import { QUEUES, type QueueName } from "@/lib/jobs/queue";
import type { JobContext, JobHandler } from "@/lib/jobs/types";

export type { JobContext, JobHandler };

interface HandlerEntry {
  load: () => Promise<JobHandler>;
  /** run when a worker starts: queues work recorded before the queue existed (upgrades) */
  adopt?: (boss: PgBoss) => Promise<unknown>;
  /** work every worker does at start and then every `everySeconds` (0: never): queues jobs nobody asked for yet */
  periodic?: () => Promise<{ everySeconds: number; run: () => Promise<unknown> }>;
}

/** Each queue's handler, loaded when a worker starts (so that the queue module imports no handler). */
export const jobHandlers: Record<QueueName, HandlerEntry> = {
  [QUEUES.import.name]: { load: async () => (await import("@/lib/import/jobs")).handleImportJob },
  [QUEUES.llmScoring.name]: {
    load: async () => (await import("@/lib/scoring/llm-jobs")).handleScoringJob,
    adopt: async (boss) => (await import("@/lib/scoring/llm-jobs")).queueUnqueuedScoringJobs(boss),
  },
  [QUEUES.assetMigration.name]: { load: async () => (await import("@/lib/assets/migrate-jobs")).handleAssetMigrationJob },
  [QUEUES.dashboardIntervals.name]: {
    load: async () => (await import("@/lib/dashboard/interval-jobs")).handleDashboardIntervalsJob,
    // large studies' most visited views, computed before anyone opens them (lib/dashboard/view-refresh.ts)
    periodic: async () => {
      const refresh = await import("@/lib/dashboard/view-refresh");
      return { everySeconds: refresh.dashboardRefreshSeconds(), run: () => refresh.refreshStudyViews() };
    },
  },
  [QUEUES.prolificSync.name]: {
    load: async () => (await import("@/lib/recruitment/prolific/sync-job")).handleProlificSyncJob,
    // published Prolific studies' submissions, polled beside Prolific's hooks (docs/prolific.md)
    periodic: async () => {
      const sync = await import("@/lib/recruitment/prolific/sync");
      return { everySeconds: sync.prolificSyncSeconds(), run: () => sync.queueProlificSyncs() };
    },
  },
  [QUEUES.export.name]: {
    load: async () => (await import("@/lib/exports/export-jobs")).handleExportJob,
    // files past their retention go when a worker starts (and at each export job, and at their expiry)
    adopt: async () => (await import("@/lib/exports/export-jobs")).sweepExpiredExports(),
  },
};
