import type { Metadata } from "next";
import { requirePageRole } from "@/lib/auth/session";
import { listUsers } from "@/lib/auth/users";
import { PageHeader } from "@/components/ui/page-header";
import { UsersTable } from "@/components/admin/users-table";

export const metadata: Metadata = { title: "Users" };

export default async function UsersPage() {
  const admin = await requirePageRole("/admin/users", "ADMIN");
  const users = await listUsers();
  return (
    <>
      <PageHeader title="Users" description="Staff sign in with email and password. Annotators can also join a study through its link." />
      <UsersTable currentUserId={admin.id} initialUsers={users.map((u) => ({ ...u, createdAt: u.createdAt.toISOString() }))} />
    </>
  );
}
