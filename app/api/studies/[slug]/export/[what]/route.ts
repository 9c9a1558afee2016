import { attachmentResponse } from "@/lib/http/attachment";
import { route } from "@/lib/http/route";
import { studySlugSchema } from "@/lib/validations/study";
import { exportParamsSchema, exportQuerySchema } from "@/lib/exports/filter";
import { createStudyExport } from "@/lib/exports/study-export";

const paramsSchema = exportParamsSchema.extend({ slug: studySlugSchema });

/**
 * GET /api/studies/<slug>/export/<items|responses|events|annotators|predictions>?format=csv|jsonl&kind=&tag=key=value&externalIds=pseudonymised
 * Streams the table (batched queries, never the whole table in memory) as an attachment.
 * Columns: docs/exports.md. Researchers and admins only: the items export holds the answer keys.
 * Every export writes an audit entry.
 */
export const GET = route(
  {
    roles: ["ADMIN", "RESEARCHER"],
    summary: "One export of the study (responses, events, items, ... as CSV or JSONL), streamed",
    params: paramsSchema,
    query: exportQuerySchema,
  },
  async ({ params, user, query }) => {
    return attachmentResponse(
      await createStudyExport(
        params.slug,
        params.what,
        query.format,
        { kind: query.kind, tag: query.tag },
        { externalIds: query.externalIds, actorId: user.id },
      ),
    );
  },
);
