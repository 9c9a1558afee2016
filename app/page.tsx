import { redirect } from "next/navigation";
import { getCurrentUser } from "@/lib/auth/session";
import { homePathFor } from "@/config/nav";

export default async function HomePage() {
  const user = await getCurrentUser();
  redirect(user ? homePathFor(user.role) : "/signin");
}
