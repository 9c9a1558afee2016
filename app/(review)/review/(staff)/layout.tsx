import { requireLayoutUser } from "@/lib/auth/session";

// Checked here (pages check again, requirePageRole) so that the refusal is a real 403 sent before
// the page streams, as in app/(research)/layout.tsx.
export default async function ReviewStaffLayout({ children }: { children: React.ReactNode }) {
  await requireLayoutUser("ADMIN", "RESEARCHER");
  return <div className="py-3">{children}</div>;
}
