import { z } from "zod";
import { route } from "@/lib/http/route";
import { studySlugSchema } from "@/lib/validations/study";
import { reportQuerySchema } from "@/lib/validations/reporting";
import { studyReportFile } from "@/lib/report";

const paramsSchema = z.object({ slug: studySlugSchema });

/**
 * GET /api/studies/<slug>/report?format=md|tex: the human-baseline report, every entry of the
 * reporting checklist with its value and source or "not reported" and why (docs/report.md), as
 * Markdown (one table per section) or LaTeX (longtables), for a paper's appendix.
 */
export const GET = route(
  {
    roles: ["ADMIN", "RESEARCHER"],
    params: paramsSchema,
    query: reportQuerySchema,
    summary: "The human-baseline report: the reporting checklist filled from the study, as Markdown or LaTeX",
  },
  async ({ params, query }) => {
    const file = await studyReportFile(params.slug, query.format);
    return new Response(file.text, {
      headers: {
        "content-type": file.contentType,
        "content-disposition": `inline; filename="${file.fileName}"`,
        "cache-control": "no-store",
        "x-content-type-options": "nosniff",
      },
    });
  },
);
