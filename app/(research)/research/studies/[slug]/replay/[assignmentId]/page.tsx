import type { Metadata } from "next";
import Link from "next/link";
import { requirePageRole } from "@/lib/auth/session";
import { getReplay } from "@/lib/annotate/research";
import { orPageError } from "@/lib/annotate/page-access";
import { Badge } from "@/components/ui/badge";
import { ReplayPlayer } from "@/components/replay/replay-player";
import { getReplaySteps, kindTakesStepLabels } from "@/lib/esi/step-labels";
import { EsiStepLabels } from "@/components/replay/esi-step-labels";

export const metadata: Metadata = { title: "Replay" };

export default async function ReplayPage({ params }: { params: Promise<{ slug: string; assignmentId: string }> }) {
  const { slug, assignmentId } = await params;
  const user = await requirePageRole(`/research/studies/${slug}/replay/${assignmentId}`, "ADMIN", "RESEARCHER");
  const data = await orPageError(getReplay(slug, assignmentId));
  // ESI-Bench: the frame of every recorded step (the player shows it) and the step labels
  const esi = kindTakesStepLabels(data.item.kind) ? await orPageError(getReplaySteps(slug, assignmentId, user.id)) : null;
  const view = esi && data.item.view && typeof data.item.view === "object" ? { ...(data.item.view as object), replay: esi.steps.map((step) => ({ seq: step.seq, view: step.view, action: step.action, valid: step.valid, message: step.message })) } : data.item.view;
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
      {esi ? (
        <EsiStepLabels
          slug={slug}
          assignmentId={assignmentId}
          agreement={esi.agreement}
          steps={esi.steps
            .filter((step) => step.seq > 0)
            .map((step) => ({ seq: step.seq, action: step.action, valid: step.valid, message: step.message, image: typeof (step.view as { image?: unknown } | null)?.image === "string" ? (step.view as { image: string }).image : null, mine: step.mine, labels: step.labels }))}
        />
      ) : null}
    </div>
  );
}
