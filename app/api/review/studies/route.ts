import { requireRole } from "@/lib/session";
import { toResponse } from "@/lib/errors";
import { readJsonBody } from "@/lib/http/body";
import { reviewStudyCreateSchema } from "@/lib/validations/review";
import { createReviewStudy, listReviewStudies } from "@/lib/review/studies";

/** GET /api/review/studies: every review study with its outcome counts (staff). */
export async function GET() {
  try {
    await requireRole("ADMIN", "RESEARCHER");
    return Response.json({ reviewStudies: await listReviewStudies() });
  } catch (error) {
    return toResponse(error);
  }
}

/**
 * POST /api/review/studies { title, slug, instructions?, batchIds, axes?, reviewersPerItem?, keepRule?, tieRule?, reviewerIds }
 * Creates a review study over the batches' items (one per distinct content). 201 { id, slug, items }.
 */
export async function POST(request: Request) {
  try {
    const user = await requireRole("ADMIN", "RESEARCHER");
    const input = reviewStudyCreateSchema.parse(await readJsonBody(request));
    return Response.json(await createReviewStudy(input, user.id), { status: 201 });
  } catch (error) {
    return toResponse(error);
  }
}
