import { route } from "@/lib/http/route";
import { reviewStudyCreateSchema } from "@/lib/validations/review";
import { createReviewStudy, listReviewStudies } from "@/lib/review/studies";

/** GET /api/review/studies: every review study with its outcome counts (staff). */
export const GET = route({ roles: ["ADMIN", "RESEARCHER"], summary: "Every review with its counts" }, async () =>
  Response.json({ reviewStudies: await listReviewStudies() }),
);

/**
 * POST /api/review/studies { title, slug, instructions?, batchIds, axes?, reviewersPerItem?, keepRule?, tieRule?, reviewerIds }
 * Creates a review study over the batches' items (one per distinct content). 201 { id, slug, items }.
 */
export const POST = route(
  { roles: ["ADMIN", "RESEARCHER"], summary: "Create a review of item batches", status: 201, errors: [409], body: reviewStudyCreateSchema },
  async ({ user, body }) => Response.json(await createReviewStudy(body, user.id), { status: 201 }),
);
