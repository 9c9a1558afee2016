"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

export function StudyTabs({ slug, tabs }: { slug: string; tabs: Array<{ title: string; path: string }> }) {
  const pathname = usePathname();
  const base = `/research/studies/${slug}`;
  return (
    <nav aria-label="Study" className="mb-6 flex gap-1 overflow-x-auto border-b border-slate-200">
      {tabs.map((tab) => {
        const href = `${base}${tab.path}`;
        const active = tab.path === "" ? pathname === base : pathname.startsWith(href);
        return (
          <Link key={tab.path} href={href} aria-current={active ? "page" : undefined} className={`-mb-px whitespace-nowrap border-b-2 px-3 py-2 text-sm font-medium ${active ? "border-brand-600 text-brand-700" : "border-transparent text-slate-600 hover:text-slate-900"}`}>
            {tab.title}
          </Link>
        );
      })}
    </nav>
  );
}
