"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useRef } from "react";
import { edgeFadeStyle, useCurrentInView, useScrollEdges } from "@/components/ui/scroll-box";

export function StudyTabs({ slug, tabs }: { slug: string; tabs: Array<{ title: string; path: string }> }) {
  const pathname = usePathname();
  const base = `/research/studies/${slug}`;
  const ref = useRef<HTMLElement>(null);
  const more = useScrollEdges(ref);
  // on a phone the tabs scroll sideways: the current one is scrolled into view and the edge that hides more fades
  useCurrentInView(ref, pathname);
  return (
    <nav ref={ref} aria-label="Study" style={edgeFadeStyle(more)} className="mb-6 flex gap-1 overflow-x-auto border-b border-slate-200">
      {tabs.map((tab) => {
        const href = `${base}${tab.path}`;
        const active = tab.path === "" ? pathname === base : pathname.startsWith(href);
        return (
          <Link
            key={tab.path}
            href={href}
            aria-current={active ? "page" : undefined}
            className={`-mb-px whitespace-nowrap border-b-2 px-2.5 py-2 text-sm sm:px-3 font-medium ${active ? "border-brand-600 text-brand-700" : "border-transparent text-slate-600 hover:text-slate-900"}`}
          >
            {tab.title}
          </Link>
        );
      })}
    </nav>
  );
}
