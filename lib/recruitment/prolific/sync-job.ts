import "server-only";
import { z } from "zod";
import type { JobHandler } from "@/lib/jobs/types";
import { syncProlificStudy } from "@/lib/recruitment/prolific/sync";

const jobDataSchema = z.object({ studyId: z.string().min(1).max(64) });

/** One study's sync (queue "prolific-sync"), queued by the worker's periodic pass (queueProlificSyncs); throwing lets the queue retry it. */
export const handleProlificSyncJob: JobHandler = async (data) => {
  const { studyId } = jobDataSchema.parse(data);
  return syncProlificStudy(studyId, null);
};
