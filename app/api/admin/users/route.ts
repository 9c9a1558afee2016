import { requireRole } from "@/lib/session";
import { toResponse } from "@/lib/errors";
import { readJsonBody } from "@/lib/http/body";
import { userCreateSchema } from "@/lib/validations/user";
import { createUserAccount, listUsers } from "@/lib/users";

export async function GET() {
  try {
    await requireRole("ADMIN");
    return Response.json({ users: await listUsers() });
  } catch (error) {
    return toResponse(error);
  }
}

export async function POST(request: Request) {
  try {
    const admin = await requireRole("ADMIN");
    const input = userCreateSchema.parse(await readJsonBody(request));
    return Response.json(await createUserAccount(input, admin.id), { status: 201 });
  } catch (error) {
    return toResponse(error);
  }
}
