import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { requirePageRole } from "@/lib/auth/session";
import { readHelpDoc } from "@/lib/help/docs";
import { HelpMarkdown } from "@/components/layout/help-markdown";

export const metadata: Metadata = { title: "Help" };

export default async function HelpDocPage({ params }: { params: Promise<{ doc: string }> }) {
  const { doc: name } = await params;
  await requirePageRole(`/help/${name}`, "ADMIN", "RESEARCHER");
  const doc = await readHelpDoc(name);
  if (!doc) notFound();
  return (
    <article className="mx-auto min-w-0 max-w-4xl overflow-hidden rounded-lg border border-slate-200 bg-white px-4 py-5 sm:px-8">
      <Link href="/help" className="text-sm text-slate-500 hover:text-slate-800">
        ← Help
      </Link>
      <HelpMarkdown>{doc.markdown}</HelpMarkdown>
    </article>
  );
}
