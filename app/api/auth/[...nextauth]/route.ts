import NextAuth from "next-auth";
import type { NextRequest } from "next/server";
import { authOptions } from "@/lib/auth";
import { boundedAuthRequest } from "@/lib/auth/auth-body";
import { answerSignInRefusals } from "@/lib/auth/sign-in-refusals";
import { toResponse } from "@/lib/errors";

const handler = NextAuth(authOptions);

type Context = { params: Promise<{ nextauth: string[] }> };

/**
 * Sign-ins and sign-outs: the body is read within its cap first (413 beyond: lib/auth/auth-body.ts),
 * and a rate-limited study-link sign-in answers 429 with Retry-After (lib/auth/sign-in-refusals.ts).
 */
async function POST(request: NextRequest, context: Context): Promise<Response> {
  const bounded = await boundedAuthRequest(request).catch((error: unknown) => error);
  if (bounded instanceof Error) return toResponse(bounded);
  return answerSignInRefusals(() => handler(bounded as NextRequest, context));
}

export { handler as GET, POST };
