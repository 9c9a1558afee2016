import type { Metadata } from "next";
import { requirePageRole } from "@/lib/auth/session";
import { orPageError } from "@/lib/annotate/page-access";
import { listParticipants } from "@/lib/participants/participants";
import { getEntryToken, listInvites } from "@/lib/studies/entry";
import { getStudyBySlug } from "@/lib/studies/studies";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { EntryLinkCard } from "@/components/research/entry-link-card";
import { InvitesManager } from "@/components/research/invites-manager";
import { ParticipantsTable } from "@/components/research/participants-table";
import { ProlificRecruitmentCard } from "@/components/research/prolific-recruitment-card";
import { getProlificStudyView } from "@/lib/recruitment/prolific/study";

export const metadata: Metadata = { title: "Participants" };

export default async function ParticipantsPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const user = await requirePageRole(`/research/studies/${slug}/participants`, "ADMIN", "RESEARCHER");
  const study = await orPageError(getStudyBySlug(slug));
  const [participants, invites, entryToken, prolific] = await Promise.all([
    listParticipants(slug),
    listInvites(slug),
    getEntryToken(study.id),
    getProlificStudyView(slug, user.id),
  ]);
  return (
    <div className="space-y-6">
      <div className="grid gap-6 xl:grid-cols-2">
        <Card>
          <CardHeader title="Public link" description="For recruited participants (Prolific or any other source): their id comes in the link." />
          <CardBody>
            <EntryLinkCard slug={slug} entryToken={entryToken} status={study.status} />
          </CardBody>
        </Card>
        <Card>
          <CardHeader
            title="Invite links"
            description="Personal links for named participants: each makes a new participant account of this study and signs that person in without a password."
          />
          <CardBody>
            <InvitesManager slug={slug} invites={invites} />
          </CardBody>
        </Card>
      </div>
      <Card>
        <CardHeader
          title="Recruitment on Prolific"
          description="Make the Prolific study from this one, publish it, sync its submissions (returned and timed-out ones free their places), and approve, reject or pay bonuses by the study's rules. docs/prolific.md."
        />
        <CardBody>
          <ProlificRecruitmentCard slug={slug} view={prolific} />
        </CardBody>
      </Card>
      <Card>
        <CardHeader
          title="Participants"
          description="Active: working; complete: finished; excluded: failed the gold rule (answers kept, left out of dashboards by default); returned: gave up or withdrew (open items go back to the pool); timed out: hit the session time limit. Times in UTC. Model agents are on the Agents tab."
        />
        <ParticipantsTable slug={slug} rows={participants.rows} counts={participants.counts} consentVersion={participants.consentVersion} />
      </Card>
    </div>
  );
}
