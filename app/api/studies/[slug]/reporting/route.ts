import { z } from "zod";
import { route } from "@/lib/http/route";
import { studySlugSchema } from "@/lib/validations/study";
import { reportingAnswersSchema } from "@/lib/validations/reporting";
import { getReportingAnswers, updateReportingAnswers } from "@/lib/report/answers";

const paramsSchema = z.object({ slug: studySlugSchema });

/** GET /api/studies/<slug>/reporting: the report's answers only a person can give, as stored. */
export const GET = route(
  { roles: ["ADMIN", "RESEARCHER"], params: paramsSchema, response: reportingAnswersSchema, summary: "The report's answers only a person can give" },
  async ({ params }) => Response.json(await getReportingAnswers(params.slug)),
);

/**
 * PATCH /api/studies/<slug>/reporting { answers: { "<checklist number>": { choice?, detail? } }, compensation: {...} }
 * -> 200 the answers as stored (they replace the previous ones; empty answers are dropped).
 * Allowed once the study has answers (they describe the study, they steer nothing of the work).
 */
export const PATCH = route(
  {
    roles: ["ADMIN", "RESEARCHER"],
    params: paramsSchema,
    body: reportingAnswersSchema,
    response: reportingAnswersSchema,
    summary: "The report's answers only a person can give (ethics review, pre-registration, population, pay, ...)",
  },
  async ({ params, user, body }) => Response.json(await updateReportingAnswers(params.slug, body, user.id)),
);
