import { requireRole } from "@/lib/session";
import { toResponse } from "@/lib/errors";
import { readJsonBody } from "@/lib/http/body";
import { idParamSchema, userUpdateSchema } from "@/lib/validations/user";
import { updateUserAccount } from "@/lib/users";

export async function PATCH(request: Request, context: { params: Promise<{ id: string }> }) {
  try {
    const { id } = idParamSchema.parse(await context.params);
    const admin = await requireRole("ADMIN");
    const input = userUpdateSchema.parse(await readJsonBody(request));
    return Response.json(await updateUserAccount(id, input, admin.id));
  } catch (error) {
    return toResponse(error);
  }
}
