import { z } from "zod";
import { route } from "@/lib/http/route";
import { studySlugSchema } from "@/lib/validations/study";
import { auditQuerySchema, listStudyAudit } from "@/lib/audit/log";

const paramsSchema = z.object({ slug: studySlugSchema });

/** GET /api/studies/<slug>/audit?page=N: the study's audit entries, newest first. */
export const GET = route(
  { roles: ["ADMIN", "RESEARCHER"], summary: "The study's audit log, newest first, a page at a time", params: paramsSchema, query: auditQuerySchema },
  async ({ params, query }) => Response.json(await listStudyAudit(params.slug, query.page)),
);
