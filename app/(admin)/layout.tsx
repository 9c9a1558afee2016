import { requireLayoutUser } from "@/lib/auth/session";
import { StaffShell } from "@/components/layout/staff-shell";

export default async function AdminLayout({ children }: { children: React.ReactNode }) {
  const user = await requireLayoutUser("ADMIN");
  return <StaffShell user={user}>{children}</StaffShell>;
}
