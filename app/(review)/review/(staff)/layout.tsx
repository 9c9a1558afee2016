import { forbidden, redirect } from "next/navigation";
import { getCurrentUser } from "@/lib/session";

// Checked here (pages check again, requirePageRole) so that the refusal is a real 403 sent before
// the page streams, as in app/(research)/layout.tsx.
export default async function ReviewStaffLayout({ children }: { children: React.ReactNode }) {
  const user = await getCurrentUser();
  if (!user) redirect("/signin");
  if (user.role !== "ADMIN" && user.role !== "RESEARCHER") forbidden();
  return <div className="py-3">{children}</div>;
}
