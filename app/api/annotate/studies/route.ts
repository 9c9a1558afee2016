import { route } from "@/lib/http/route";
import { listMemberStudies } from "@/lib/annotate/studies";

/** GET /api/annotate/studies: the studies the signed-in user is a member of, with progress. */
export const GET = route({ roles: "signed-in", summary: "The studies the signed-in person is a member of, with their progress" }, async ({ user }) =>
  Response.json({ studies: await listMemberStudies(user.id) }),
);
