import { studyCreatedReplySchema, studyListReplySchema } from "@/lib/validations/api-replies";
import { route } from "@/lib/http/route";
import { studyCreateSchema } from "@/lib/validations/study";
import { createStudy, listStudiesWithCounts } from "@/lib/studies/studies";

export const GET = route(
  { roles: ["ADMIN", "RESEARCHER"], response: studyListReplySchema, summary: "The studies (not archived), newest first, with their counts" },
  async () => Response.json({ studies: await listStudiesWithCounts() }),
);

export const POST = route(
  { roles: ["ADMIN", "RESEARCHER"], summary: "Create a study", response: studyCreatedReplySchema, status: 201, errors: [409], body: studyCreateSchema },
  async ({ user, body }) => Response.json(await createStudy(body, user.id), { status: 201 }),
);
