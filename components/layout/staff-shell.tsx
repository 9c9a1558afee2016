import { forbidden, redirect } from "next/navigation";
import { getCurrentUser } from "@/lib/session";
import { SiteHeader } from "@/components/layout/site-header";
import type { Role } from "@/lib/generated/prisma/enums";

/**
 * The shell of a staff route group. The role is checked here too (pages check again with
 * requirePageRole), so that a refusal is sent as a real 403 before the page streams.
 */
export async function StaffShell({ allowed, children }: { allowed: readonly Role[]; children: React.ReactNode }) {
  const user = await getCurrentUser();
  if (!user) redirect("/signin");
  if (!allowed.includes(user.role)) forbidden();
  return (
    <div className="min-h-screen">
      <SiteHeader user={user} />
      <main className="mx-auto max-w-7xl px-4 py-6 sm:px-6">{children}</main>
    </div>
  );
}
