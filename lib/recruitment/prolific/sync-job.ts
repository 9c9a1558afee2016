import "server-only";
import { z } from "zod";
import type { JobHandler } from "@/lib/jobs/types";
import { syncProlificStudy } from "@/lib/recruitment/prolific/sync";

const jobDataSchema = z.object({ studyId: z.string().min(1).max(64) });

/** The job of one study's sync (queue "prolific-sync"), e.g. queued after a hook for a submission not stored yet. */
export const handleProlificSyncJob: JobHandler = async (data) => {
  const { studyId } = jobDataSchema.parse(data);
  return syncProlificStudy(studyId, null);
};
