import { route } from "@/lib/http/route";
import { completeTutorial } from "@/lib/participants/participants";
import { studySlugParamSchema } from "@/lib/validations/annotate";

/** POST /api/annotate/studies/[slug]/tutorial -> 204: the participant read the tutorial pages. */
export const POST = route(
  { roles: "signed-in", summary: "Mark the study's tutorial as done for the signed-in person", errors: [409], status: 204, params: studySlugParamSchema },
  async ({ params, user }) => {
    await completeTutorial(params.slug, user.id);
    return new Response(null, { status: 204 });
  },
);
