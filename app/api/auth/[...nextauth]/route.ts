import NextAuth from "next-auth";
import { authOptions } from "@/lib/auth";
import { answerSignInRefusals } from "@/lib/auth/sign-in-refusals";

const handler = NextAuth(authOptions);

type Context = { params: Promise<{ nextauth: string[] }> };

/** sign-ins: a rate-limited study-link sign-in answers 429 with Retry-After (lib/auth/sign-in-refusals.ts) */
async function POST(request: Request, context: Context): Promise<Response> {
  return answerSignInRefusals(() => handler(request, context));
}

export { handler as GET, POST };
