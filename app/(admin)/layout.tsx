import { StaffShell } from "@/components/layout/staff-shell";

export default function AdminLayout({ children }: { children: React.ReactNode }) {
  return <StaffShell allowed={["ADMIN"]}>{children}</StaffShell>;
}
