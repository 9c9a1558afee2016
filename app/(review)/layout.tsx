import { requireLayoutUser } from "@/lib/auth/session";
import { SiteHeader } from "@/components/layout/site-header";

// Item verification (docs/review.md): reviewers of any role (membership of a review study grants
// it, checked by each page), and the researchers' pages under (staff) layouts.
export default async function ReviewLayout({ children }: { children: React.ReactNode }) {
  const user = await requireLayoutUser();
  return (
    <div className="min-h-screen">
      <SiteHeader user={user} />
      <main className="mx-auto max-w-[1400px] px-4 py-3 sm:px-6">{children}</main>
    </div>
  );
}
