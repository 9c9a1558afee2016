import type { Metadata } from "next";
import Link from "next/link";
import { requirePageRole } from "@/lib/auth/session";
import { getItemReview } from "@/lib/annotate/research";
import { orPageError } from "@/lib/annotate/page-access";
import { Card, CardHeader } from "@/components/ui/card";
import { Badge } from "@/components/ui/badge";
import { ItemKeyView } from "@/components/replay/item-key-view";
import { KeyView } from "@/components/review/key-view";
import { itemPageViewOf } from "@/components/tasks/key-views";
import { ItemResponsesCard } from "@/components/research/item-responses";

export const metadata: Metadata = { title: "Item" };

export default async function ItemPage({ params }: { params: Promise<{ slug: string; id: string }> }) {
  const { slug, id } = await params;
  await requirePageRole(`/research/studies/${slug}/items/${id}`, "ADMIN", "RESEARCHER");
  const review = await orPageError(getItemReview(slug, id));
  const { item } = review;
  const page = itemPageViewOf(item.kind);
  const keyInTask = page.keyInTask && item.keyAnswer !== null ? page.keyInTask : null;
  const tags = item.tags && typeof item.tags === "object" ? Object.entries(item.tags as Record<string, unknown>) : [];
  return (
    <div className="space-y-5">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <Link href={`/research/studies/${slug}`} className="text-slate-500 hover:text-slate-800">
          ← Items
        </Link>
        <span className="font-mono text-xs text-slate-700" title={item.externalId}>
          {item.externalId}
        </span>
        <Badge tone="violet">{item.kind}</Badge>
        {item.practice ? <Badge tone="blue">practice</Badge> : null}
        {item.gold ? <Badge tone="amber">gold</Badge> : null}
        {tags.map(([key, value]) => (
          <span key={key} className="rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-600">
            {key}: {String(value)}
          </span>
        ))}
        <span className="text-xs text-slate-400">batch {item.batch}</span>
      </div>

      {keyInTask ? (
        <Card>
          <CardHeader title={keyInTask.title} description={keyInTask.description} />
          <div className="p-3">
            <ItemKeyView kind={item.kind} view={item.view} keyAnswer={item.keyAnswer} notes={keyInTask.notes(item.review, item.keyAnswer)} />
          </div>
        </Card>
      ) : (
        <div className="grid gap-5 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
          <Card>
            <CardHeader title="The item" description="As annotators see it (playing a clip here records nothing)." />
            <div className="p-3">
              <ItemKeyView kind={item.kind} view={item.view} keyAnswer={null} />
            </div>
          </Card>
          <Card>
            <CardHeader title="The key" description="What answers are scored against; never sent to annotators." />
            <div className="p-3" data-testid="item-key">
              <KeyView kind={item.kind} view={item.review} />
            </div>
          </Card>
        </div>
      )}

      <ItemResponsesCard review={review} slug={slug} />
    </div>
  );
}
