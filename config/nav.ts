import type { Role } from "@/lib/generated/prisma/enums";

export interface NavItem {
  title: string;
  href: string;
}

/** Navigation by role; ADMIN sees everything a researcher sees. */
export const navByRole: Record<Role, NavItem[]> = {
  ADMIN: [
    { title: "Studies", href: "/research" },
    { title: "Import", href: "/admin/import" },
    { title: "Users", href: "/admin/users" },
  ],
  RESEARCHER: [{ title: "Studies", href: "/research" }],
  ANNOTATOR: [{ title: "My studies", href: "/studies" }],
};

export function homePathFor(role: Role): string {
  return role === "ANNOTATOR" ? "/studies" : "/research";
}
