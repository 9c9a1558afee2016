import { forbidden, redirect } from "next/navigation";
import { getCurrentUser } from "@/lib/session";
import { SiteHeader } from "@/components/layout/site-header";

// Checked here too (pages check again, requirePageRole), so that the refusal is sent as a real
// 403 before the page streams.
const allowed = ["ADMIN"] as const;

export default async function StaffLayout({ children }: { children: React.ReactNode }) {
  const user = await getCurrentUser();
  if (!user) redirect("/signin");
  if (!(allowed as readonly string[]).includes(user.role)) forbidden();
  return (
    <div className="min-h-screen">
      <SiteHeader user={user} />
      <main className="mx-auto max-w-7xl px-4 py-6 sm:px-6">{children}</main>
    </div>
  );
}
