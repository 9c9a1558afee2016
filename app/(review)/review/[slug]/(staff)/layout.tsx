import { requireLayoutUser } from "@/lib/auth/session";

// Results and decisions are the researchers' (a real 403 before the page streams; pages check again).
export default async function ReviewStudyStaffLayout({ children }: { children: React.ReactNode }) {
  await requireLayoutUser("ADMIN", "RESEARCHER");
  return <div className="py-3">{children}</div>;
}
