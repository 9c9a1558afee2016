import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { requirePageRole } from "@/lib/session";
import { getMemberStudy } from "@/lib/annotate/studies";
import { nextForMember } from "@/lib/annotate/next";
import { orPageError } from "@/lib/annotate/page-access";
import { AnnotateSessionClient } from "@/components/annotate/annotate-session-client";

export const metadata: Metadata = { title: "Annotate" };

export default async function WorkPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const user = await requirePageRole(`/s/${slug}/work`);
  const study = await orPageError(getMemberStudy(slug, user.id));
  const initial = await nextForMember(slug, user.id);
  if (initial.status === "done") redirect(`/s/${slug}/done`);
  return (
    <AnnotateSessionClient
      study={{ slug: study.slug, title: study.title, confidenceScale: study.confidenceScale, idleCapSeconds: study.idleCapSeconds }}
      initial={initial}
    />
  );
}
