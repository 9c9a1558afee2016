import Link from "next/link";
import type { ReviewItemView } from "@/lib/review/types";

/** The item's metadata and tags: what it is, where it comes from, where its outcome applies. */
export function ItemMeta({ item, studyLinks = false }: { item: ReviewItemView["item"]; studyLinks?: boolean }) {
  const tags = Object.entries(item.tags);
  return (
    <dl className="grid grid-cols-[5.5rem_minmax(0,1fr)] gap-x-2 gap-y-1 text-xs" data-testid="item-meta">
      <dt className="text-slate-500">Item</dt>
      <dd className="break-all font-mono text-slate-800">{item.externalId}</dd>
      <dt className="text-slate-500">Kind</dt>
      <dd className="text-slate-800">
        {item.kindTitle ?? item.kind}
        {item.benchmark ? <span className="text-slate-500"> · {item.benchmark}</span> : null}
        <span className="ml-1 font-mono text-[11px] text-slate-400">{item.kind}</span>
      </dd>
      <dt className="text-slate-500">Tags</dt>
      <dd>
        {tags.length === 0 ? (
          <span className="text-slate-400">none</span>
        ) : (
          <ul className="flex flex-wrap gap-1">
            {tags.map(([key, value]) => (
              <li key={key} className="rounded bg-slate-100 px-1.5 py-0.5 text-slate-700">
                {key}: {String(value)}
              </li>
            ))}
          </ul>
        )}
      </dd>
      {item.practice || item.gold ? (
        <>
          <dt className="text-slate-500">Flags</dt>
          <dd className="text-slate-800">
            {[item.practice ? "practice item (annotators get feedback)" : null, item.gold ? "gold / attention check" : null].filter(Boolean).join(", ")}
          </dd>
        </>
      ) : null}
      <dt className="text-slate-500">Batch</dt>
      <dd className="break-all text-slate-800">{item.batch ?? "unknown"}</dd>
      <dt className="text-slate-500">Used in</dt>
      <dd className="text-slate-800">
        {item.usedIn.length === 0
          ? "no study"
          : item.usedIn.map((study, i) => (
              <span key={study.slug}>
                {i > 0 ? ", " : ""}
                {studyLinks ? (
                  <Link href={`/research/studies/${study.slug}`} className="text-brand-700 hover:underline">
                    {study.title}
                  </Link>
                ) : (
                  study.title
                )}
              </span>
            ))}
      </dd>
      <dt className="text-slate-500">Content</dt>
      <dd className="font-mono text-[11px] text-slate-500" title={item.contentHash}>
        {item.contentHash.slice(0, 16)}
      </dd>
    </dl>
  );
}
