"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { helpHrefOf, helpTopicFor } from "@/config/help";

/** The staff page's link to its part of the docs (config/help.ts), at the top right of the page. */
export function HelpLink() {
  const topic = helpTopicFor(usePathname());
  if (!topic) return null;
  return (
    <div className="mb-2 flex justify-end">
      <Link href={helpHrefOf(topic)} className="inline-flex min-h-8 items-center gap-1 text-xs text-slate-500 hover:text-brand-700" data-testid="help-link">
        <span aria-hidden="true">?</span> {topic.label}
      </Link>
    </div>
  );
}
