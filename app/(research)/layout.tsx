import { requireLayoutUser } from "@/lib/auth/session";
import { StaffShell } from "@/components/layout/staff-shell";

export default async function ResearchLayout({ children }: { children: React.ReactNode }) {
  const user = await requireLayoutUser("ADMIN", "RESEARCHER");
  return <StaffShell user={user}>{children}</StaffShell>;
}
