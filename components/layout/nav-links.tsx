"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { activeNavHref, type NavItem } from "@/config/nav";

export function NavLinks({ items }: { items: NavItem[] }) {
  const pathname = usePathname();
  const activeHref = activeNavHref(items, pathname);
  return (
    <nav aria-label="Main" className="flex min-w-0 items-center gap-1 overflow-x-auto text-sm">
      {items.map((item) => {
        const active = item.href === activeHref;
        return (
          <Link
            key={item.href}
            href={item.href}
            aria-current={active ? "page" : undefined}
            className={`whitespace-nowrap rounded-md px-2 py-1.5 font-medium sm:px-3 transition-colors ${active ? "bg-brand-50 text-brand-700" : "text-slate-600 hover:bg-slate-100 hover:text-slate-900"}`}
          >
            {item.title}
          </Link>
        );
      })}
    </nav>
  );
}
