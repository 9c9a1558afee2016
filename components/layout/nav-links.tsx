"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useRef } from "react";
import { activeNavHref, type NavItem } from "@/config/nav";
import { edgeFadeStyle, useCurrentInView, useScrollEdges } from "@/components/ui/scroll-box";

export function NavLinks({ items }: { items: NavItem[] }) {
  const pathname = usePathname();
  const activeHref = activeNavHref(items, pathname);
  const ref = useRef<HTMLElement>(null);
  const more = useScrollEdges(ref);
  useCurrentInView(ref, pathname);
  // tight on a phone so that an admin's five entries fit beside Sign out; where they still do not
  // (a narrower phone), the bar scrolls and fades at the edge that hides more
  return (
    <nav ref={ref} aria-label="Main" style={edgeFadeStyle(more)} className="flex min-w-0 items-center overflow-x-auto text-[13px] sm:gap-1 sm:text-sm">
      {items.map((item) => {
        const active = item.href === activeHref;
        return (
          <Link
            key={item.href}
            href={item.href}
            aria-current={active ? "page" : undefined}
            className={`whitespace-nowrap rounded-md px-1.5 py-1.5 font-medium sm:px-3 transition-colors ${active ? "bg-brand-50 text-brand-700" : "text-slate-600 hover:bg-slate-100 hover:text-slate-900"}`}
          >
            {item.title}
          </Link>
        );
      })}
    </nav>
  );
}
