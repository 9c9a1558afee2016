"use client";

import { useState } from "react";
import { Button, buttonClass } from "@/components/ui/button";

/** Copy the report's Markdown, or download its LaTeX (GET /api/studies/<slug>/report?format=tex), for a paper's appendix. */
export function ReportActions({ slug, markdown }: { slug: string; markdown: string }) {
  const [copied, setCopied] = useState<"yes" | "failed" | null>(null);

  async function copy() {
    try {
      await navigator.clipboard.writeText(markdown);
      setCopied("yes");
    } catch {
      setCopied("failed");
    }
  }

  return (
    <div className="flex flex-wrap items-center gap-3">
      <Button type="button" size="sm" onClick={() => void copy()}>
        Copy Markdown
      </Button>
      <a className={buttonClass("secondary", "sm")} href={`/api/studies/${encodeURIComponent(slug)}/report?format=tex`} download>
        Download LaTeX
      </a>
      <a className={buttonClass("secondary", "sm")} href={`/api/studies/${encodeURIComponent(slug)}/report?format=md`} download>
        Download Markdown
      </a>
      {copied ? (
        <p role="status" className={`text-sm ${copied === "yes" ? "text-emerald-700" : "text-red-700"}`}>
          {copied === "yes" ? "Copied." : "The browser refused the clipboard: use Download Markdown."}
        </p>
      ) : null}
    </div>
  );
}
