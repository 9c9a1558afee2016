import { HelpLink } from "@/components/layout/help-link";
import { SiteHeader } from "@/components/layout/site-header";
import type { CurrentUser } from "@/lib/auth/session";

/** The shell of a staff route group; its layout checks the user's role (lib/auth/session.ts requireLayoutUser). */
export function StaffShell({ user, children }: { user: CurrentUser; children: React.ReactNode }) {
  return (
    <div className="min-h-screen">
      <SiteHeader user={user} />
      <main className="mx-auto max-w-7xl px-4 py-6 sm:px-6">
        <HelpLink />
        {children}
      </main>
    </div>
  );
}
