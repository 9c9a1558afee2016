import { forbidden, redirect } from "next/navigation";
import { getCurrentUser } from "@/lib/session";

// Results and decisions are the researchers' (a real 403 before the page streams; pages check again).
export default async function ReviewStudyStaffLayout({ children }: { children: React.ReactNode }) {
  const user = await getCurrentUser();
  if (!user) redirect("/signin");
  if (user.role !== "ADMIN" && user.role !== "RESEARCHER") forbidden();
  return <div className="py-3">{children}</div>;
}
