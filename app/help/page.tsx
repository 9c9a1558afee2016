import type { Metadata } from "next";
import Link from "next/link";
import { requirePageRole } from "@/lib/auth/session";
import { listHelpDocs } from "@/lib/help/docs";
import { PageHeader } from "@/components/ui/page-header";

export const metadata: Metadata = { title: "Help" };

export default async function HelpIndexPage() {
  await requirePageRole("/help", "ADMIN", "RESEARCHER");
  const docs = await listHelpDocs();
  return (
    <>
      <PageHeader title="Help" description="The project's documentation, as the repository holds it." />
      <ul className="grid gap-2 sm:grid-cols-2" aria-label="Docs">
        {docs.map((doc) => (
          <li key={doc.name}>
            <Link
              href={`/help/${doc.name}`}
              className="block rounded-md border border-slate-200 bg-white px-3 py-2 text-sm font-medium text-brand-700 hover:bg-slate-50"
            >
              {doc.title}
            </Link>
          </li>
        ))}
      </ul>
    </>
  );
}
