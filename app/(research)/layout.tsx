import { redirect } from "next/navigation";
import { getCurrentUser } from "@/lib/session";
import { SiteHeader } from "@/components/layout/site-header";

// Pages check roles themselves (requirePageRole); this layout only draws the shell.
export default async function StaffLayout({ children }: { children: React.ReactNode }) {
  const user = await getCurrentUser();
  if (!user) redirect("/signin");
  return (
    <div className="min-h-screen">
      <SiteHeader user={user} />
      <main className="mx-auto max-w-7xl px-4 py-6 sm:px-6">{children}</main>
    </div>
  );
}
