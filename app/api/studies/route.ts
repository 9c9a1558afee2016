import { requireRole } from "@/lib/session";
import { toResponse } from "@/lib/errors";
import { readJsonBody } from "@/lib/http/body";
import { studyCreateSchema } from "@/lib/validations/study";
import { createStudy, listStudiesWithCounts } from "@/lib/studies";

export async function GET() {
  try {
    await requireRole("ADMIN", "RESEARCHER");
    return Response.json({ studies: await listStudiesWithCounts() });
  } catch (error) {
    return toResponse(error);
  }
}

export async function POST(request: Request) {
  try {
    const user = await requireRole("ADMIN", "RESEARCHER");
    const input = studyCreateSchema.parse(await readJsonBody(request));
    const study = await createStudy(input, user.id);
    return Response.json(study, { status: 201 });
  } catch (error) {
    return toResponse(error);
  }
}
