import { route } from "@/lib/http/route";
import { userCreateSchema } from "@/lib/validations/user";
import { createUserAccount, listUsers } from "@/lib/auth/users";

export const GET = route({ roles: ["ADMIN"], summary: "Every account with its role and state" }, async () => Response.json({ users: await listUsers() }));

export const POST = route(
  { roles: ["ADMIN"], summary: "Create an account (409 when the email is taken)", status: 201, errors: [409], body: userCreateSchema },
  async ({ user: admin, body }) => Response.json(await createUserAccount(body, admin.id), { status: 201 }),
);
