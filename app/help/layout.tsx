import { requireLayoutUser } from "@/lib/auth/session";
import { StaffShell } from "@/components/layout/staff-shell";

/**
 * The docs, for staff. Outside the (research) group on purpose: that group's loading boundary
 * streams a 200 before a page can answer 404, and an unknown doc must be a 404.
 */
export default async function HelpLayout({ children }: { children: React.ReactNode }) {
  const user = await requireLayoutUser("ADMIN", "RESEARCHER");
  return <StaffShell user={user}>{children}</StaffShell>;
}
