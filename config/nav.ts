import type { Role } from "@/lib/generated/prisma/enums";

export interface NavItem {
  title: string;
  href: string;
}

/** Navigation by role; ADMIN sees everything a researcher sees. */
export const navByRole: Record<Role, NavItem[]> = {
  ADMIN: [
    { title: "Studies", href: "/research" },
    { title: "Review", href: "/review" },
    { title: "Import", href: "/admin/import" },
    { title: "Users", href: "/admin/users" },
    { title: "API", href: "/research/tokens" },
  ],
  RESEARCHER: [
    { title: "Studies", href: "/research" },
    { title: "Review", href: "/review" },
    { title: "API", href: "/research/tokens" },
  ],
  ANNOTATOR: [{ title: "My studies", href: "/studies" }],
};

/**
 * The entries for one user: a reviewer who is not staff (membership of a review study grants
 * reviewing, lib/review/studies.ts isReviewer) also gets "Review".
 */
export function navFor(role: Role, options: { reviewer?: boolean } = {}): NavItem[] {
  const items = navByRole[role];
  return options.reviewer && !items.some((item) => item.href === "/review") ? [...items, { title: "Review", href: "/review" }] : items;
}

export function homePathFor(role: Role): string {
  return role === "ANNOTATOR" ? "/studies" : "/research";
}
