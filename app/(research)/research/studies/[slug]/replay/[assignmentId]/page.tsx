import type { Metadata } from "next";
import Link from "next/link";
import { requirePageRole } from "@/lib/auth/session";
import { getKindReplay, getReplay } from "@/lib/annotate/research";
import { orPageError } from "@/lib/annotate/page-access";
import { Badge } from "@/components/ui/badge";
import { ReplayPlayer } from "@/components/replay/replay-player";
import { replayPanels } from "@/components/tasks/replay-panels";

export const metadata: Metadata = { title: "Replay" };

export default async function ReplayPage({ params }: { params: Promise<{ slug: string; assignmentId: string }> }) {
  const { slug, assignmentId } = await params;
  const user = await requirePageRole(`/research/studies/${slug}/replay/${assignmentId}`, "ADMIN", "RESEARCHER");
  const data = await orPageError(getReplay(slug, assignmentId));
  // what the item's kind adds (its replay hook): the player's view, and its panel below the player
  const { view, panel } = await orPageError(getKindReplay(data, user.id));
  const Panel = panel !== null && Object.hasOwn(replayPanels, data.item.kind) ? replayPanels[data.item.kind] : null;
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <Link href={`/research/studies/${slug}/items/${data.item.id}`} className="text-slate-500 hover:text-slate-800">
          ← Item
        </Link>
        <h2 className="text-base font-semibold">
          Replay: {data.annotator.pseudonym} <span className="font-normal text-slate-500">{data.annotator.name}</span>
        </h2>
        <span className="font-mono text-xs text-slate-600" title={data.item.externalId}>
          {data.item.externalId}
        </span>
        <Badge tone="violet">{data.item.kind}</Badge>
        <Badge tone={data.assignment.status === "SUBMITTED" ? "green" : "slate"}>{data.assignment.status.toLowerCase()}</Badge>
        {data.assignment.purpose !== "MAIN" ? <Badge tone="blue">{data.assignment.purpose.toLowerCase()}</Badge> : null}
      </div>
      <ReplayPlayer
        kind={data.item.kind}
        view={view}
        confidenceScale={data.study.confidenceScale}
        idleCapSeconds={data.study.idleCapSeconds}
        events={data.events}
        response={data.response}
        keyAnswer={data.item.keyAnswer}
      />
      {Panel ? <Panel slug={slug} assignmentId={assignmentId} panel={panel} /> : null}
    </div>
  );
}
