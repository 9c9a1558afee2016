import { StaffShell } from "@/components/layout/staff-shell";

export default function ResearchLayout({ children }: { children: React.ReactNode }) {
  return <StaffShell allowed={["ADMIN", "RESEARCHER"]}>{children}</StaffShell>;
}
