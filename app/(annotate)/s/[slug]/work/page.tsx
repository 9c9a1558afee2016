import type { Metadata } from "next";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { isPhoneOrTabletRequest } from "@/lib/client/device";
import { DesktopOnlyNotice } from "@/components/annotate/desktop-only-notice";
import { requirePageRole } from "@/lib/auth/session";
import { getMemberStudy } from "@/lib/annotate/studies";
import { nextForMember } from "@/lib/annotate/next";
import { orPageError } from "@/lib/annotate/page-access";
import { gatePath, getParticipation } from "@/lib/participants/participants";
import { AnnotateSessionClient } from "@/components/annotate/annotate-session-client";
import { contactOf } from "@/lib/studies/contact";

export const metadata: Metadata = { title: "Annotate" };

export default async function WorkPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const user = await requirePageRole(`/s/${slug}/work`);
  const study = await orPageError(getMemberStudy(slug, user.id));
  // consent, tutorial, or a participation that has ended come first
  const participation = await getParticipation(slug, user.id);
  const gate = gatePath(participation);
  if (gate) redirect(gate);
  if (study.desktopOnly) {
    const request = await headers();
    // a phone or tablet by its user agent gets the notice before any item is handed out (the session checks the pointer too)
    if (isPhoneOrTabletRequest(request.get("user-agent"), request.get("sec-ch-ua-mobile"))) {
      return <DesktopOnlyNotice slug={slug} heading="h1" />;
    }
  }
  const initial = await nextForMember(slug, user.id);
  if (initial.status === "done" || initial.status === "quota" || initial.status === "full") redirect(`/s/${slug}/done`);
  if (initial.status === "consent" || initial.status === "tutorial") redirect(initial.path);
  if (initial.status === "excluded" || initial.status === "timed_out" || initial.status === "returned") redirect(`/s/${slug}/ended`);
  // read again: the queue may have started the session clock just now
  const startedAt = initial.status === "item" ? ((await getParticipation(slug, user.id)).startedAt ?? null) : participation.startedAt;
  return (
    <AnnotateSessionClient
      study={{
        slug: study.slug,
        title: study.title,
        confidenceScale: study.confidenceScale,
        idleCapSeconds: study.idleCapSeconds,
        itemTimeLimitSeconds: study.itemTimeLimitSeconds,
        sessionEndsAt: study.sessionTimeLimitSeconds && startedAt ? startedAt.getTime() + study.sessionTimeLimitSeconds * 1000 : null,
        desktopOnly: study.desktopOnly,
        contact: contactOf(study),
      }}
      initial={initial}
    />
  );
}
