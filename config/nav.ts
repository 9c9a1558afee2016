import type { Role } from "@/lib/generated/prisma/enums";

export interface NavItem {
  title: string;
  href: string;
  /** further path prefixes the entry stands for (its pages that sit under another entry's path) */
  also?: string[];
}

/** Navigation by role; ADMIN sees everything a researcher sees. */
export const navByRole: Record<Role, NavItem[]> = {
  ADMIN: [
    { title: "Studies", href: "/research" },
    { title: "Review", href: "/review" },
    { title: "Import", href: "/admin/import" },
    { title: "Users", href: "/admin/users" },
    { title: "API", href: "/research/tokens", also: ["/research/api"] },
  ],
  RESEARCHER: [
    { title: "Studies", href: "/research" },
    { title: "Review", href: "/review" },
    { title: "API", href: "/research/tokens", also: ["/research/api"] },
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

/**
 * The one entry a page belongs to: the entry with the longest path prefix of the page's path
 * (so /research/tokens is "API", not also "Studies", whose /research is a shorter prefix).
 */
export function activeNavHref(items: NavItem[], pathname: string): string | null {
  let best: { href: string; length: number } | null = null;
  for (const item of items) {
    for (const prefix of [item.href, ...(item.also ?? [])]) {
      const matches = pathname === prefix || pathname.startsWith(`${prefix}/`);
      if (matches && (!best || prefix.length > best.length)) best = { href: item.href, length: prefix.length };
    }
  }
  return best?.href ?? null;
}
