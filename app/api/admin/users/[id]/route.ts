import { route } from "@/lib/http/route";
import { idParamSchema, userUpdateSchema } from "@/lib/validations/user";
import { updateUserAccount } from "@/lib/auth/users";

export const PATCH = route(
  {
    roles: ["ADMIN"],
    summary: "Change an account's name, role or state (disabling ends its sessions and API tokens)",
    errors: [409],
    params: idParamSchema,
    body: userUpdateSchema,
  },
  async ({ params, user: admin, body }) => Response.json(await updateUserAccount(params.id, body, admin.id)),
);
