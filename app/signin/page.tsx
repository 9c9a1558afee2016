import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { getCurrentUser } from "@/lib/auth/session";
import { homePathFor } from "@/config/nav";
import { SignInForm } from "@/components/auth/sign-in-form";
import { signInErrorMessage } from "@/lib/auth/sign-in-errors";
import { safeCallbackPath } from "@/lib/security/callback-url";

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ callbackUrl?: string; error?: string }> }) {
  const { callbackUrl, error } = await searchParams;
  const user = await getCurrentUser();
  // only a place on this origin, as the browser resolves it (lib/security/callback-url.ts)
  const safeCallback = safeCallbackPath(callbackUrl, process.env.NEXTAUTH_URL);
  if (user) redirect(safeCallback ?? homePathFor(user.role));
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <div className="w-full max-w-sm">
        <div className="mb-6 flex items-center gap-2">
          <span aria-hidden className="grid h-9 w-9 place-items-center rounded-lg bg-brand-600 text-lg font-bold text-white">
            Y
          </span>
          <div>
            <div className="text-lg font-semibold tracking-tight">Yardstick</div>
            <div className="text-xs text-slate-500">Human baselines for embodied world-model benchmarks</div>
          </div>
        </div>
        <div className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
          <h1 className="mb-4 text-lg font-semibold">Sign in</h1>
          <SignInForm callbackUrl={safeCallback} initialError={signInErrorMessage(error)} />
        </div>
        <p className="mt-4 text-center text-xs text-slate-500">Participants of a study: use the link you were given.</p>
      </div>
    </main>
  );
}
